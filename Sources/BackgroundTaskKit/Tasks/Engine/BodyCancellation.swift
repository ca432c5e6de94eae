import Dispatch

/// Lets an expiration handler cancel the structured task that runs a `withBackgroundTask` body.
///
/// Swift offers no handle to cancel the current task from elsewhere except `UnsafeCurrentTask`, which
/// must not be used once the task may be gone. So the reference is used only between ``attach(_:)``
/// and ``detach()``, and ``detach()`` (called before the body's task can finish) waits for a cancel
/// already in progress: the task is alive whenever `cancel()` touches it.
final class BodyCancellation: Sendable {
    private enum State {
        case idle
        case running(UncheckedSendableBox<UnsafeCurrentTask>)
        case cancelling
        case finished
    }

    private let state = Locked(State.idle)
    private let cancelDone = DispatchSemaphore(value: 0)

    /// Records the task to cancel; `nil` (no current task) makes ``cancel()`` do nothing.
    func attach(_ task: UnsafeCurrentTask?) {
        guard let task else { return }
        state.withLock { $0 = .running(UncheckedSendableBox(task)) }
    }

    /// Cancels the attached task, once; nothing after ``detach()``.
    func cancel() {
        let task = state.withLock { state -> UnsafeCurrentTask? in
            guard case .running(let box) = state else { return nil }
            state = .cancelling
            return box.value
        }
        guard let task else { return }
        task.cancel()  // without the lock: it runs the task's cancellation handlers
        state.withLock { $0 = .finished }
        cancelDone.signal()
    }

    /// Stops further cancels, waiting for one in progress to finish.
    func detach() {
        let mustWait = state.withLock { state -> Bool in
            if case .cancelling = state { return true }
            state = .finished
            return false
        }
        if mustWait { cancelDone.wait() }
    }
}
