import BackgroundTaskKit
import Foundation

/// Continued processing over `BGTaskScheduler` and `BGContinuedProcessingTaskRequest` (iOS 26), written over mirrors
/// so that its logic runs on every platform; ``SafeTaskScheduler/shared`` holds one where the system has it.
public struct SystemContinuedProcessing<
    Scheduler: TaskSchedulerMirroring,
    Request: ContinuedProcessingRequestMirroring,
    Task: ContinuedProcessingTaskMirroring
>: ContinuedProcessingScheduling {
    private let scheduler: UncheckedScheduler<Scheduler>
    private let makeRequest: @Sendable (_ identifier: String, _ title: String, _ subtitle: String) -> Request
    private let gpu: @Sendable () -> Bool

    /// Creates the adapter.
    /// - Parameters:
    ///   - scheduler: The scheduler, `BGTaskScheduler.shared`.
    ///   - request: Makes a request (`BGContinuedProcessingTaskRequest(identifier:title:subtitle:)`).
    ///   - task: The task type launch handlers get (`BGContinuedProcessingTask.self`).
    ///   - supportsBackgroundGPU: Whether `BGTaskScheduler.supportedResources` contains `.gpu`.
    public init(
        _ scheduler: Scheduler,
        request: @escaping @Sendable (_ identifier: String, _ title: String, _ subtitle: String) -> Request,
        task: Task.Type,
        supportsBackgroundGPU: @escaping @Sendable () -> Bool
    ) {
        self.scheduler = UncheckedScheduler(scheduler)
        self.makeRequest = request
        self.gpu = supportsBackgroundGPU
    }

    /// Whether the device gives continued-processing jobs the GPU in the background.
    public var supportsBackgroundGPU: Bool { gpu() }

    /// Registers the launch handler; a launched task of another type (never seen) is completed unsuccessfully.
    public func registerContinuedProcessing(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedContinuedProcessingTask) -> Void
    ) throws(TaskSchedulingError) {
        try scheduler.register(identifier) { task in
            guard let continued = task as? Task else {
                task.setTaskCompleted(success: false)
                return
            }
            launchHandler(SystemLaunchedContinuedTask(continued))
        }
    }

    /// Submits the request with its strategy and resources; maps the framework's error codes.
    public func submitContinuedProcessing(_ request: ContinuedProcessingRequest) throws(TaskSchedulingError) {
        try scheduler.submit(frameworkRequest(request), identifier: request.identifier)
    }

    private func frameworkRequest(_ request: ContinuedProcessingRequest) -> Scheduler.Request? {
        let made = makeRequest(request.identifier, request.title, request.subtitle)
        guard let strategy = Request.Strategy(rawValue: request.strategy == .fail ? 0 : 1),
            let resources = Request.Resources(rawValue: request.requiresGPU ? 1 : 0)
        else { return nil }
        made.strategy = strategy
        made.requiredResources = resources
        return made as? Scheduler.Request
    }
}

/// A `BGContinuedProcessingTask` as a ``LaunchedContinuedProcessingTask``: a launched task whose `NSProgress`
/// (safe on any thread, like the task's other members) and titles the system shows.
final class SystemLaunchedContinuedTask<Task: ContinuedProcessingTaskMirroring>: SystemLaunchedTask<Task>,
    LaunchedContinuedProcessingTask, @unchecked Sendable  // as its superclass: no state of its own
{
    func reportProgress(completed: Int64, total: Int64) {
        task.progress.totalUnitCount = total
        task.progress.completedUnitCount = completed
    }

    func updateTitle(_ title: String, subtitle: String) {
        task.updateTitle(title, subtitle: subtitle)
    }
}
