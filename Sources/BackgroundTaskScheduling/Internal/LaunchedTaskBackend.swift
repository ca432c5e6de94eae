import BackgroundTaskKit
import Foundation

/// One launched task as a ``BackgroundTaskBackend`` with a single assertion, so that the package's engine (and its
/// promise: exactly one end, on every path, expiry included) drives it: the begin installs the engine's expiration
/// handler on the task; the end resubmits the next request if asked, then calls `setTaskCompleted` — once, whoever
/// ends (the work, an error path, the expiry, the safety net).
final class LaunchedTaskBackend: BackgroundTaskBackend {
    private struct Progress {
        var begun = false
        var completed = false
        var succeeded = false
        var expired = false  // an expired task completes unsuccessfully, whatever its work did after
    }

    let task: any LaunchedTask
    private let progress = Locked(Progress())
    private let hooks: BackgroundTaskBackendHooks?
    private let beforeCompletion: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - task: The launched task.
    ///   - hooks: The scheduler backend's hooks for its tasks (the simulator's clock), if any.
    ///   - beforeCompletion: Runs once, just before `setTaskCompleted` (resubmitting the next request).
    init(_ task: any LaunchedTask, hooks: BackgroundTaskBackendHooks?, beforeCompletion: (@Sendable () -> Void)?) {
        self.task = task
        self.hooks = hooks
        self.beforeCompletion = beforeCompletion
    }

    /// The work succeeded: the completion says so, unless the task expired first.
    func markSucceeded() {
        progress.withLock { $0.succeeded = true }
    }

    /// The one assertion: the engine's handler goes on the task, called on whatever queue the system uses.
    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let first = progress.withLock { progress -> Bool in
            defer { progress.begun = true }
            return !progress.begun
        }
        guard first else { return nil }
        if let expirationHandler {
            task.setExpirationHandler { [progress] in
                progress.withLock { $0.expired = true }
                MainActorContext.callOnAnyThread(expirationHandler)
            }
        }
        return Self.identifier
    }

    /// Completes the task, once: later ends, and any other identifier, do nothing.
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        guard identifier == Self.identifier else { return }
        let success = progress.withLock { progress -> Bool? in
            guard progress.begun, !progress.completed else { return nil }
            progress.completed = true
            return progress.succeeded && !progress.expired
        }
        guard let success else { return }
        beforeCompletion?()
        task.setTaskCompleted(success: success)
    }

    /// Unknown: the system does not tell a scheduled task's time.
    var backgroundTimeRemaining: TimeInterval? { nil }

    var engineHooks: BackgroundTaskBackendHooks? { hooks }

    private static let identifier = BackgroundTaskIdentifier(rawValue: 1)
}
