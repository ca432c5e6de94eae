/// The continued-processing part of a ``TaskSchedulerBackend`` (iOS 26): register a concrete identifier's launch
/// handler (exempt from the launch rule), submit a request, and whether the device supports background GPU work.
///
/// ## Implementation requirements
///
/// Every requirement may be called from any thread. The launch handler is called on a queue of the backend's, once,
/// when the system starts the job.
public protocol ContinuedProcessingScheduling: Sendable {
    /// Whether the device can give continued-processing jobs the GPU in the background
    /// (`BGTaskScheduler.supportedResources` contains `.gpu`).
    var supportsBackgroundGPU: Bool { get }

    /// Registers the launch handler of a concrete identifier (allowed after launch, unlike other tasks).
    /// - Parameters:
    ///   - identifier: The concrete identifier.
    ///   - launchHandler: Called when the system starts the job.
    /// - Throws: ``TaskSchedulingError`` when the system refuses the identifier.
    func registerContinuedProcessing(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedContinuedProcessingTask) -> Void
    ) throws(TaskSchedulingError)

    /// Submits a request, from the foreground.
    /// - Parameter request: The request.
    /// - Throws: ``TaskSchedulingError``: not permitted (also from the background), unavailable, or
    ///   ``TaskSchedulingError/Code/immediateRunIneligible`` under the `.fail` strategy.
    func submitContinuedProcessing(_ request: ContinuedProcessingRequest) throws(TaskSchedulingError)
}

/// A continued-processing job the system started (`BGContinuedProcessingTask`), as the seam sees it: a launched task
/// whose progress the system shows, and whose title and subtitle can change.
///
/// > Important: Report progress: "tasks that appear stalled may be forcibly expired".
public protocol LaunchedContinuedProcessingTask: LaunchedTask {
    /// Sets the progress the system shows (`progress.completedUnitCount` and `totalUnitCount`).
    /// - Parameters:
    ///   - completed: Units done.
    ///   - total: Units in all.
    func reportProgress(completed: Int64, total: Int64)
    /// Changes the title and subtitle the system shows (`updateTitle(_:subtitle:)`).
    /// - Parameters:
    ///   - title: The new title.
    ///   - subtitle: The new subtitle.
    func updateTitle(_ title: String, subtitle: String)
}

extension TaskSchedulerBackend {
    /// `nil`: no continued processing (before iOS 26, or without `BGContinuedProcessingTask`).
    public var continuedProcessing: (any ContinuedProcessingScheduling)? { nil }
}
