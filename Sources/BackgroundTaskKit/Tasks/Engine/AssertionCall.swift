import Dispatch

/// Where one system assertion stands in its calls to the backend. The engine knows every `beginBackgroundTask` and
/// `endBackgroundTask` it started and has not finished; an expiration handler arriving while one is in flight on
/// another thread waits for it, so the assertion is ended before the handler returns, whichever thread got there first.
struct AssertionCall {
    // `none`: no call yet (a coalesced task's own call is never used); `beginning` and `ending`: `beginBackgroundTask`
    // or `endBackgroundTask` runs on `thread`; `held`: granted, `identifier` valid; `ended`: ended, or never granted.
    enum Phase: UInt8 {
        case none
        case beginning
        case held
        case ending
        case ended
    }

    // Stored in this order (words first, bytes last) so that a task record stays small: `identifier` (valid while held
    // or ending), `thread` (making the call in flight; meaningless otherwise), `waiters` (handlers awaiting the end).
    var identifier = BackgroundTaskIdentifier(rawValue: 0)
    var thread = CallingThread.current
    var waiters: CallWaiters?
    var phase = Phase.none
    /// An expiry has claimed the assertion: whoever learns its identifier ends it at once; nothing else may end it.
    var claimed = false
    var endedBySafetyNet = false  // the end in flight, when it comes, is the deinit safety net's
    /// Whether a backend call for it is running now.
    var isInFlight: Bool { phase == .beginning || phase == .ending }

    /// Registers a waiter for the call in flight unless on `thread` (a handler inside it must not wait); returns it.
    mutating func waiter(unlessOn thread: CallingThread) -> CallWaiters? {
        guard isInFlight, !self.thread.isSame(as: thread) else { return nil }
        let waiters = self.waiters ?? CallWaiters()
        waiters.count += 1
        self.waiters = waiters
        return waiters
    }

    /// Marks the assertion ended; returns the waiters to wake (after unlocking).
    mutating func finish() -> CallWaiters? {
        phase = .ended
        defer { waiters = nil }
        return waiters
    }
}

/// Expiration handlers waiting for one assertion to be ended: one semaphore, signalled once per waiter.
package final class CallWaiters: @unchecked Sendable {  // `count` under its owner's lock; a semaphore
    private let semaphore = DispatchSemaphore(value: 0)
    package var count = 0

    package init() {}

    /// Wakes every waiter; call after unlocking, with the count read under the lock.
    package func wake(_ count: Int) {
        for _ in 0..<count { semaphore.signal() }
    }

    /// Waits until woken.
    package func wait() {
        semaphore.wait()
    }

    /// Waits at most `timeout` seconds; `true` when woken.
    package func wait(timeout: Double) -> Bool {
        semaphore.wait(timeout: .now() + timeout) == .success
    }
}
