import BackgroundTaskKit

/// The meeting point of a continued-processing job's caller, who waits, and the system's launch, which may come at
/// once, later (queued), or after the caller gave up (then the launched task is completed at once, unsuccessfully).
final class ContinuedLaunch: Sendable {
    /// The launched task, begun on the engine in the launch handler.
    struct Launched: Sendable {
        let record: HandedOver<AnyObject>
        let backend: LaunchedTaskBackend
        let task: any LaunchedContinuedProcessingTask
    }

    private enum Stage {
        case waiting(CheckedContinuation<Launched, any Error>?)
        case launched(Launched)
        case cancelled
    }

    private struct State {
        var stage = Stage.waiting(nil)
    }
    private let state = Locked(State())

    /// In the launch handler: hands the launched task to the caller, or, if the caller gave up, ends it at once.
    func deliver(_ launched: Launched) {
        let waiter = state.withLock { state -> CheckedContinuation<Launched, any Error>?? in
            switch state.stage {
            case .waiting(let continuation):
                state.stage = .launched(launched)
                return .some(continuation)
            case .launched, .cancelled:
                return nil  // launched twice, or too late: nobody waits
            }
        }
        switch waiter {
        case .some(.some(let continuation)):
            continuation.resume(returning: launched)
        case .some(.none):
            break  // the caller takes it when it waits
        case .none:
            AsyncBody.finish(launched.record.value)  // nobody will run it: complete it now
        }
    }

    /// The caller waits for the launch; a cancellation of the caller gives up (`onCancel` cancels the request) and
    /// throws `CancellationError`.
    func wait(onCancel: @escaping @Sendable () -> Void) async throws -> Launched {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Launched, CancellationError>? in
                    switch state.stage {
                    case .waiting:
                        state.stage = .waiting(continuation)
                        return nil
                    case .launched(let launched):
                        return .success(launched)
                    case .cancelled:
                        return .failure(CancellationError())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Launched, any Error>? in
                guard case .waiting(let continuation) = state.stage else { return nil }
                state.stage = .cancelled
                return continuation
            }
            onCancel()
            waiter?.resume(throwing: CancellationError())
        }
    }
}
