import Dispatch

/// Where one system assertion stands in its calls to the backend.
///
/// The engine knows every `beginBackgroundTask` and `endBackgroundTask` it has started and not
/// finished. An expiration handler that arrives while one is in flight on another thread waits for
/// it, so that the assertion is ended before the handler returns, whichever thread got there first.
struct AssertionCall {
    enum Phase: UInt8 {
        /// No call yet (a coalesced task's own call is never used).
        case none
        /// `beginBackgroundTask` is running on ``thread``.
        case beginning
        /// Granted and held: ``identifier`` is valid.
        case held
        /// `endBackgroundTask` is running on ``thread``.
        case ending
        /// Ended, or never granted.
        case ended
    }

    // Stored in this order (words first, bytes last) so that a task record stays small.

    /// Valid while ``Phase/held`` or ``Phase/ending``.
    var identifier = BackgroundTaskIdentifier(rawValue: 0)
    /// The thread making the call in flight (meaningless otherwise).
    var thread = CallingThread.current
    /// Expiration handlers waiting for it to be ended.
    var waiters: CallWaiters?
    var phase = Phase.none
    /// An expiry has claimed the assertion: it is ended as soon as its identifier is known, by
    /// whoever learns it, and nothing else may end it.
    var claimed = false
    /// The end in flight, when it comes, is the deinit safety net's.
    var endedBySafetyNet = false

    /// Whether a backend call for it is running now.
    var isInFlight: Bool { phase == .beginning || phase == .ending }

    /// Registers a waiter for the call in flight, unless that call runs on `thread` (a handler called
    /// from inside it must not wait for it to return). Returns what to wait on, if anything.
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

/// Expiration handlers waiting for one assertion to be ended: one semaphore, signalled once per
/// waiter. `count` is only touched under the engine's lock.
package final class CallWaiters: @unchecked Sendable {  // `count` under its owner's lock; a semaphore
    private let semaphore = DispatchSemaphore(value: 0)
    package var count = 0

    /// No waiters yet.
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
