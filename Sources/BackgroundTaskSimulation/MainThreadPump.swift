import BackgroundTaskKit
import Foundation

/// Gets work that expiration handlers running off the main thread send to the main actor onto the
/// main thread, in a test whose main thread drives the simulator.
///
/// On a device the system calls such a handler on a background thread and the main thread is free,
/// so work the handler sends to the main actor runs at once. In a test the main thread is the one
/// driving the simulator: blocked in `advance(by:)` until the handler returns, or busy with the
/// test's next line. So work sent through ``hop(_:)`` (the package's engine uses it through its
/// backend hooks) is queued here and run on the main thread at the first of: the main thread waiting
/// for an off-main handler (``wait(for:timeout:)``), the simulator settling before it moves the clock
/// (``settle(timeout:)``), or the main queue's turn.
///
/// Work a handler sends with `DispatchQueue.main` itself cannot run while the test's main thread
/// waits: the waits give up after their timeout of real time.
final class MainThreadPump: @unchecked Sendable {  // state only under `condition`
    private let condition = NSCondition()
    private var work: [@Sendable () -> Void] = []
    /// Handler threads the simulator started and does not wait for at once.
    private var backgroundWork = 0
    /// The main thread is inside ``wait(for:timeout:)`` or ``settle(timeout:)``.
    private var pumping = 0
    /// Runs work drained from the main queue as handler time (set by the simulator): that work is
    /// always done for an expiration handler, so the time it spends must not move the clock.
    var asHandlerTime: (@Sendable (() -> Void) -> Void)?
    /// Whether the app runs (set by the simulator): a suspended app's main thread runs nothing, so
    /// work drained on the main queue's turn waits until it runs again (``runQueuedWork()``).
    var appRuns: (@Sendable () -> Bool)?

    /// Whether hopped work or handler threads are pending.
    var hasPendingWork: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !work.isEmpty || backgroundWork > 0
    }

    /// Runs `body` on the main actor soon (see above).
    func hop(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        work.append(body)
        condition.broadcast()
        condition.unlock()
        DispatchQueue.main.async { self.drain() }
    }

    /// Runs `body` on a new thread that the simulator waits for before it next moves the clock.
    func startBackground(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        backgroundWork += 1
        condition.unlock()
        Thread { [self] in
            body()
            condition.lock()
            backgroundWork -= 1
            condition.broadcast()
            condition.unlock()
        }
        .start()
    }

    /// Runs `body` on this (non-main) thread as work the simulator waits for before it moves the clock.
    func runTracked(_ body: () -> Void) {
        condition.lock()
        backgroundWork += 1
        condition.unlock()
        body()
        condition.lock()
        backgroundWork -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// On the main thread: runs `body` on a new thread and, meanwhile, the work hopped to the main
    /// actor, until `body` returns or `timeout` seconds of real time pass. Returns whether `body`
    /// returned in time.
    func wait(for body: @escaping @Sendable () -> Void, timeout: TimeInterval) -> Bool {
        let finished = Locked(false)
        startBackground {
            body()
            finished.withLock { $0 = true }
        }
        return pump(until: { finished.withLock { $0 } }, timeout: timeout)
    }

    /// On the main thread, before the clock moves: runs the hopped work and waits for the handler
    /// threads started with ``startBackground(_:)``, at most `timeout` of real time. Does nothing when
    /// already pumping (called from work the pump runs). Returns whether everything finished.
    func settle(timeout: TimeInterval) -> Bool {
        condition.lock()
        let idle = work.isEmpty && backgroundWork == 0
        let nested = pumping > 0
        condition.unlock()
        guard !idle, !nested else { return true }
        return pump(until: { self.backgroundWork == 0 }, timeout: timeout, conditionHeld: true)
    }

    /// On the main thread: runs the work queued now, as handler time, without waiting for more; not
    /// while the app is suspended. Returns whether it ran any.
    @discardableResult
    func runQueuedWork() -> Bool {
        drain()
    }

    /// Runs the queued work on the main thread, as handler time; not while the app is suspended (a
    /// suspended app's main thread runs nothing: the work waits until it runs again).
    @discardableResult
    private func drain() -> Bool {
        condition.lock()
        if let appRuns, !appRuns() {
            condition.unlock()
            return false
        }
        let batch = work
        work.removeAll()
        let asHandlerTime = asHandlerTime
        condition.unlock()
        guard !batch.isEmpty else { return false }
        let run = { for item in batch { item() } }
        if let asHandlerTime { asHandlerTime(run) } else { run() }
        return true
    }

    /// Runs hopped work until `done` holds (read under the lock when `conditionHeld`) or the timeout.
    private func pump(until done: @escaping () -> Bool, timeout: TimeInterval, conditionHeld: Bool = false) -> Bool {
        condition.lock()
        pumping += 1
        condition.unlock()
        defer {
            condition.lock()
            pumping -= 1
            condition.unlock()
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            condition.lock()
            var finished = conditionHeld ? done() : false
            if !conditionHeld {
                condition.unlock()
                finished = done()
                condition.lock()
            }
            while work.isEmpty, !finished {
                if !condition.wait(until: deadline) { break }
                if conditionHeld {
                    finished = done()
                } else {
                    condition.unlock()
                    finished = done()
                    condition.lock()
                }
            }
            let batch = work
            work.removeAll()
            condition.unlock()
            for item in batch { item() }
            if finished, batch.isEmpty { return true }
            if batch.isEmpty, Date() >= deadline { return false }
        }
    }
}
