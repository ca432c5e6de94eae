import BackgroundTaskKit
import Dispatch
import Foundation

/// A one-shot flag that any thread can raise and a test can wait for, with a timeout.
///
/// Waiting happens on a thread of its own, so an `async` test neither blocks the main actor nor a
/// thread of the cooperative pool while it waits.
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let raised = Locked(false)

    /// Whether ``raise()`` has been called.
    var isRaised: Bool { raised.value }

    /// Raises the flag; raising it again does nothing.
    func raise() {
        let isFirst = raised.withLock { raised in
            defer { raised = true }
            return !raised
        }
        if isFirst { semaphore.signal() }
    }

    /// Waits, blocking the calling thread, until the flag is raised or `timeout` seconds have passed.
    ///
    /// - Returns: Whether the flag was raised in time.
    func waitBlocking(timeout: TimeInterval = 30) -> Bool {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return false }
        semaphore.signal()  // Stays raised for the next waiter.
        return true
    }

    /// Waits, without blocking a Swift concurrency thread, until the flag is raised or `timeout`
    /// seconds have passed.
    ///
    /// - Returns: Whether the flag was raised in time.
    func wait(timeout: TimeInterval = 30) async -> Bool {
        await onNewThread { self.waitBlocking(timeout: timeout) }
    }
}

/// Runs `body` on a new thread (neither the main thread nor the cooperative pool) and returns its
/// result.
func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Runs `body(index)` on `count` new threads at once and blocks until all have returned, or until
/// `timeout` seconds have passed.
///
/// - Returns: Whether every thread returned in time.
func onThreadsBlocking(
    _ count: Int,
    timeout: TimeInterval = 10,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    return group.wait(timeout: .now() + timeout) == .success
}

/// Runs `body(index)` on `count` new threads at once and waits until all have returned, or until
/// `timeout` seconds have passed.
///
/// - Returns: Whether every thread returned in time.
func onThreads(_ count: Int, timeout: TimeInterval = 10, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
    await onNewThread { onThreadsBlocking(count, timeout: timeout, body) }
}

/// Returns once the main queue has run every block enqueued on it before the call.
func drainMainQueue() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}
