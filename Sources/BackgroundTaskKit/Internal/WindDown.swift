/// How an expiry waits for the async bodies it cancelled to return before it ends their assertions, so that work
/// releases its file and database locks before the app is suspended (a lock held at suspension is `0xdead10cc`).
///
/// Bounded twice: each handler waits at most its tasks' limit (default 0.5 s: Apple DTS asks handlers to return in
/// "less than a second or so"), and all waits within 10 s, one expiry's handlers, share 2 s in total, well inside the
/// handlers' few seconds and the ~4–5 s between the handlers and the end of background time (WordPress-iOS PR #21254:
/// 26 s of 30; wire-ios PR #5020: "around 5 seconds"). A handler on the main thread never waits for a body on the main
/// actor, which cannot run until the handler returns.
enum WindDown {
    /// The most all waits of one expiry take together, in seconds.
    static let allowance: Double = 2
    private static let burst = Locked(Burst())

    private struct Burst {
        var endsAt = -Double.infinity
        var left = WindDown.allowance
    }

    /// A configured limit: NaN, negative and zero mean no wait; at most ``allowance``.
    static func limit(_ value: Double) -> Double {
        value > 0 ? min(value, allowance) : 0
    }

    /// Waits until every body has returned or the longest limit (within the burst's allowance) has passed. With a
    /// backend's `realTimeLimit` (the simulator's), bodies off the main actor get that long instead, and nothing counts
    /// against the allowance; a body on the main actor keeps its limit (a busy main thread may be what it waits for).
    static func wait(for bodies: [(waiters: CallWaiters, limit: Double, onMainActor: Bool)], realTimeLimit: Double?) {
        let limits = bodies.map { body in realTimeLimit.map { body.onMainActor ? body.limit : $0 } ?? body.limit }
        guard let longest = limits.max(), longest > 0 else { return }
        let start = BackendClock.monotonicNow()
        let allowed = burst.withLock { burst -> Double in
            if realTimeLimit != nil { return longest }
            if start > burst.endsAt { burst = Burst(endsAt: start + 10) }
            return min(longest, burst.left)
        }
        for (body, limit) in zip(bodies, limits) {
            _ = body.waiters.wait(timeout: max(start + min(limit, allowed) - BackendClock.monotonicNow(), 0))
        }
        guard realTimeLimit == nil else { return }
        let waited = BackendClock.monotonicNow() - start
        burst.withLock { $0.left = max($0.left - waited, 0) }
    }
}
