import BackgroundTaskKit
import Foundation

/// Lets an expiration handler that the simulator calls off the main thread get work onto the main
/// actor while the main thread waits for it.
///
/// On a device the system calls such a handler on a background thread and the main thread is free,
/// so work the handler sends to the main actor runs at once. In a test the main thread is the one
/// driving the simulator (`advance(by:)`), blocked until the handler returns, so
/// `DispatchQueue.main` work could not run before the handler gave up on it. While the main thread
/// waits for an off-main handler it runs, in order, the work sent through ``hop(_:)`` (which the
/// package's engine uses, through its backend hooks); at any other time ``hop(_:)`` is
/// `DispatchQueue.main.async`.
///
/// Work a handler sends with `DispatchQueue.main` itself cannot run while the test's main thread
/// waits: ``wait(for:timeout:)`` then gives up after `timeout` of real time.
final class MainThreadPump: @unchecked Sendable {  // state only under `condition`
    private let condition = NSCondition()
    private var work: [@Sendable () -> Void] = []
    private var pumping = 0

    /// Runs `body` on the main actor soon: on the waiting main thread while it pumps, else on the main
    /// queue.
    func hop(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        guard pumping > 0 else {
            condition.unlock()
            DispatchQueue.main.async(execute: body)
            return
        }
        work.append(body)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` on a new thread and, on the calling (main) thread, the work hopped to the main
    /// actor meanwhile, until `body` returns or `timeout` seconds of real time pass. Returns whether
    /// `body` returned in time.
    func wait(for body: @escaping @Sendable () -> Void, timeout: TimeInterval) -> Bool {
        let finished = Locked(false)
        condition.lock()
        pumping += 1
        condition.unlock()
        let thread = Thread { [condition] in
            body()
            condition.lock()
            finished.withLock { $0 = true }
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
        let deadline = Date(timeIntervalSinceNow: timeout)
        var done = false
        while true {
            condition.lock()
            while work.isEmpty, !finished.withLock({ $0 }) {
                if !condition.wait(until: deadline) { break }
            }
            let batch = work
            work.removeAll()
            done = finished.withLock { $0 }
            let timedOut = !done && batch.isEmpty && Date() >= deadline
            if done || timedOut { pumping -= 1 }
            condition.unlock()
            for item in batch { item() }
            if done || timedOut { break }
        }
        return done
    }
}
