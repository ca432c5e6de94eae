import Foundation

/// `BGTask`'s members, copied to the letter so that ``SystemTaskScheduler`` is tested on every platform.
///
/// `BGTask` conforms with an empty extension (`AppleConformances.swift`); tests conform a stand-in with the identical
/// declarations. The system calls `expirationHandler` on a queue of its own and clears it once called or once the task
/// completes.
public protocol ScheduledTaskMirroring: AnyObject {
    /// The task identifier.
    var identifier: String { get }
    /// Called shortly before the task's time runs out; without one the task is marked complete and unsuccessful.
    var expirationHandler: (() -> Void)? { get set }
    /// Tells the scheduler the task is complete.
    /// - Parameter success: Whether the work succeeded.
    func setTaskCompleted(success: Bool)
}

/// `BGTaskRequest`'s members, copied to the letter.
public protocol TaskRequestMirroring: AnyObject {
    /// The task identifier.
    var identifier: String { get }
    /// Not before this date; `nil` for no delay.
    var earliestBeginDate: Date? { get set }
}

/// `BGProcessingTaskRequest`'s members, copied to the letter.
public protocol ProcessingTaskRequestMirroring: TaskRequestMirroring {
    /// Launch only with a network connection.
    var requiresNetworkConnectivity: Bool { get set }
    /// Launch only on external power.
    var requiresExternalPower: Bool { get set }
}

/// `BGTaskScheduler`'s members, copied to the letter (with the Swift names of its API notes).
///
/// `BGTaskScheduler` conforms with an empty extension; its `Task` is `BGTask` and its `Request` `BGTaskRequest`.
public protocol TaskSchedulerMirroring: AnyObject {
    /// The task type launch handlers get (`BGTask`).
    associatedtype Task: ScheduledTaskMirroring
    /// The request type `submit(_:)` takes (`BGTaskRequest`).
    associatedtype Request: TaskRequestMirroring

    /// Registers a launch handler; before the app finishes launching, once per identifier.
    /// - Parameters:
    ///   - identifier: The task identifier, listed in the Info.plist.
    ///   - queue: The queue the handler runs on; `nil` for a background queue of the system's.
    ///   - launchHandler: Called when the system launches the task.
    /// - Returns: `false` when the identifier is not in the Info.plist's permitted identifiers.
    func register(
        forTaskWithIdentifier identifier: String,
        using queue: DispatchQueue?,
        launchHandler: @escaping (Task) -> Void
    ) -> Bool
    /// Submits a request; one for the same identifier replaces it.
    /// - Parameter taskRequest: The request.
    /// - Throws: An error of the `BGTaskSchedulerErrorDomain`.
    func submit(_ taskRequest: Request) throws
    /// Cancels the pending request of an identifier.
    /// - Parameter identifier: The task identifier.
    func cancel(taskRequestWithIdentifier identifier: String)
    /// Cancels every pending request.
    func cancelAllTaskRequests()
}

/// `BGContinuedProcessingTask`'s members (iOS 26), copied to the letter.
public protocol ContinuedProcessingTaskMirroring: ScheduledTaskMirroring {
    /// The title the system shows.
    var title: String { get }
    /// The subtitle the system shows.
    var subtitle: String { get }
    /// The progress the system shows (`NSProgressReporting`).
    var progress: Progress { get }
    /// Changes the title and subtitle the system shows.
    /// - Parameters:
    ///   - title: The new title.
    ///   - subtitle: The new subtitle.
    func updateTitle(_ title: String, subtitle: String)
}

/// `BGContinuedProcessingTaskRequest`'s members (iOS 26), copied to the letter.
public protocol ContinuedProcessingRequestMirroring: TaskRequestMirroring {
    /// `BGContinuedProcessingTaskRequest.SubmissionStrategy`: `fail` 0, `queue` 1.
    associatedtype Strategy: RawRepresentable where Strategy.RawValue == Int
    /// `BGContinuedProcessingTaskRequest.Resources`: `default` 0, `gpu` 1.
    associatedtype Resources: RawRepresentable where Resources.RawValue == Int
    /// The title the system shows.
    var title: String { get set }
    /// The subtitle the system shows.
    var subtitle: String { get set }
    /// What to do when the job cannot run at once.
    var strategy: Strategy { get set }
    /// The resources the job needs.
    var requiredResources: Resources { get set }
}
