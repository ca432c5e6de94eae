import BackgroundTaskKit
import Foundation

/// A launched background task (`BGTask`) for callback code: complete it once the work is done; it cannot be completed
/// twice, and completes itself on expiry and if released first.
///
/// ``SafeTaskScheduler/register(_:onExpiration:nextRequest:fileID:line:function:launchHandler:)`` hands it over:
/// ```swift
/// try scheduler.register("com.example.db.cleanup", onExpiration: { database.interrupt() }) { task in
///     database.cleanUp { error in task.complete(success: error == nil) }
/// }
/// ```
/// > Important: Keep it until the work is done. If its last reference goes away first, it completes itself
/// > unsuccessfully (the safety net) and reports a leak, as `SafeBackgroundTask` does (`BackgroundTaskLeakReporting`: the
/// > handler of the module that registered it, or the process-wide one, by default standard error). On expiry
/// > your `onExpiration` runs on the main actor, then the task completes unsuccessfully; a later `complete` does
/// > nothing.
public final class SafeScheduledTask: Sendable {
    private let task: SafeBackgroundTask
    private let backend: LaunchedTaskBackend

    init(_ task: SafeBackgroundTask, backend: LaunchedTaskBackend) {
        self.task = task
        self.backend = backend
    }

    /// The task identifier.
    public var identifier: String { backend.task.identifier }

    /// Completes the task (`setTaskCompleted(success:)`), once: later calls, and calls after expiry, do nothing.
    /// Callable from any thread.
    /// - Parameter success: Whether the work succeeded.
    public func complete(success: Bool) {
        if success { backend.markSucceeded() }
        task.end()
    }

    /// Whether the system expired the task: stop the work.
    public var isExpired: Bool { task.isExpired }

    /// Whether the task is still running (neither completed nor expired).
    public var isRunning: Bool { task.state == .running }
}
