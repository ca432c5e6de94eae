import Foundation

/// Why a background task was not granted: the one error type of this package.
/// ```swift
/// do {
///     let task = try manager.beginTask("Upload")
///     upload { task.end() }
/// } catch .insufficientTimeRemaining {
///     scheduleUploadForLater()  // for example with BGTaskScheduler
/// } catch {
///     upload(withoutBackgroundTime: ())
/// }
/// ```
public enum BackgroundTaskError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system refused the assertion (`beginBackgroundTask` returned `.invalid`, or an expiring activity was
    /// refused). Rare; the work runs without extra background time.
    case notGranted
    /// A ``BackgroundTaskManager`` already has `limit` tasks outstanding (its
    /// ``BackgroundTaskManager/Configuration/maximumOutstandingTasks``). Far below the system's limit of about 1000,
    /// which terminates the app (`0xbada5e47`).
    case limitReached(limit: Int)
    /// Less background time remains than the manager's ``BackgroundTaskManager/Configuration/minimumTimeRemaining``:
    /// starting now is unsafe (the system may not even call the expiration handler); defer the work instead.
    case insufficientTimeRemaining(remaining: TimeInterval, required: TimeInterval)

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .notGranted:
            "The system did not grant a background-task assertion; the work runs without extra background time."
        case .limitReached(let limit):
            "\(limit) background tasks are already running, the manager's limit (maximumOutstandingTasks); end the "
                + "tasks whose work is done, or raise the limit."
        case .insufficientTimeRemaining(let remaining, let required):
            "Only \(remaining) s of background time remain, less than the \(required) s required; defer the work."
        }
    }
}
