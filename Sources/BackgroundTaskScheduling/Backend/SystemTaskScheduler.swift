import BackgroundTaskKit
import Foundation

/// A backend over `BGTaskScheduler` (iOS, tvOS, visionOS, Mac Catalyst), written over the ``TaskSchedulerMirroring``
/// mirror so that its logic runs on every platform. Apps use ``SafeTaskScheduler/shared``, which holds one over
/// `BGTaskScheduler.shared`.
///
/// Requests become `BGAppRefreshTaskRequest` and `BGProcessingTaskRequest` objects through the factories given;
/// `BGTask` objects become ``LaunchedTask``s; the framework's errors become ``TaskSchedulingError``s by their code in
/// `BGTaskSchedulerErrorDomain`.
public struct SystemTaskScheduler<Scheduler: TaskSchedulerMirroring>: TaskSchedulerBackend {
    private let scheduler: UncheckedScheduler<Scheduler>
    private let appRefreshRequest: @Sendable (String) -> any TaskRequestMirroring
    private let processingRequest: @Sendable (String) -> any ProcessingTaskRequestMirroring
    private let environmentNow: @Sendable () -> TaskSchedulerEnvironment
    /// Continued processing, where the system has it (iOS 26); `nil` elsewhere.
    public let continuedProcessing: (any ContinuedProcessingScheduling)?

    /// Creates a backend over a scheduler.
    /// - Parameters:
    ///   - scheduler: The scheduler, for example `BGTaskScheduler.shared`.
    ///   - appRefreshRequest: Makes a refresh request for an identifier (`BGAppRefreshTaskRequest(identifier:)`).
    ///   - processingRequest: Makes a processing request for an identifier (`BGProcessingTaskRequest(identifier:)`).
    ///   - environment: What the Info.plist and the launch say, read at each call.
    ///   - continuedProcessing: Continued processing (a ``SystemContinuedProcessing`` on iOS 26), or `nil`.
    public init(
        _ scheduler: Scheduler,
        appRefreshRequest: @escaping @Sendable (String) -> any TaskRequestMirroring,
        processingRequest: @escaping @Sendable (String) -> any ProcessingTaskRequestMirroring,
        environment: @escaping @Sendable () -> TaskSchedulerEnvironment = { .infoPlist() },
        continuedProcessing: (any ContinuedProcessingScheduling)? = nil
    ) {
        self.scheduler = UncheckedScheduler(scheduler)
        self.continuedProcessing = continuedProcessing
        self.appRefreshRequest = appRefreshRequest
        self.processingRequest = processingRequest
        self.environmentNow = environment
    }

    /// The framework's request for `request`, as the scheduler's request type (its subclasses are).
    private func makeRequest(_ request: ScheduledTaskRequest) -> Scheduler.Request? {
        let made: any TaskRequestMirroring
        switch request.kind {
        case .appRefresh:
            made = appRefreshRequest(request.identifier)
        case .processing(let network, let power):
            let processing = processingRequest(request.identifier)
            processing.requiresNetworkConnectivity = network
            processing.requiresExternalPower = power
            made = processing
        }
        made.earliestBeginDate = request.earliestBeginDate
        return made as? Scheduler.Request
    }

    /// Registers the launch handler with the scheduler, on the system's background queue.
    public func register(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) throws(TaskSchedulingError) {
        try scheduler.register(identifier) { task in launchHandler(SystemLaunchedTask(task)) }
    }

    /// Submits the request as the scheduler's request type; maps the framework's error codes.
    public func submit(_ request: ScheduledTaskRequest) throws(TaskSchedulingError) {
        try scheduler.submit(makeRequest(request), identifier: request.identifier)
    }

    /// Cancels the pending request of `identifier`.
    public func cancel(identifier: String) {
        scheduler.value.cancel(taskRequestWithIdentifier: identifier)
    }

    /// Cancels every pending request.
    public func cancelAll() {
        scheduler.value.cancelAllTaskRequests()
    }

    /// What the Info.plist and the launch say, now.
    public var environment: TaskSchedulerEnvironment { environmentNow() }

    /// The framework's error as a ``TaskSchedulingError``: codes 1–4 of `BGTaskSchedulerErrorDomain`.
    static func schedulingError(_ error: any Error, identifier: String) -> TaskSchedulingError {
        let error = error as NSError
        let code: TaskSchedulingError.Code =
            switch (error.domain, error.code) {
            case ("BGTaskSchedulerErrorDomain", 1): .unavailable
            case ("BGTaskSchedulerErrorDomain", 2): .tooManyPendingTaskRequests
            case ("BGTaskSchedulerErrorDomain", 3): .notPermitted
            case ("BGTaskSchedulerErrorDomain", 4): .immediateRunIneligible
            default: .other
            }
        return TaskSchedulingError(code, identifier: identifier, detail: "\(error.domain) \(error.code)")
    }
}

/// The scheduler, shared across threads: `BGTaskScheduler` is one process-wide object that apps call from any queue,
/// and whose header declares no main-thread rule.
final class UncheckedScheduler<Scheduler>: @unchecked Sendable {  // the framework object is thread-safe
    let value: Scheduler
    init(_ value: Scheduler) { self.value = value }
}

extension UncheckedScheduler where Scheduler: TaskSchedulerMirroring {
    /// Registers `launchHandler` on the system's background queue; a refusal is ``TaskSchedulingError/Code/notPermitted``.
    func register(_ identifier: String, launchHandler: @escaping (Scheduler.Task) -> Void) throws(TaskSchedulingError) {
        guard value.register(forTaskWithIdentifier: identifier, using: nil, launchHandler: launchHandler) else {
            throw TaskSchedulingError(.notPermitted, identifier: identifier, detail: "refused by BGTaskScheduler")
        }
    }

    /// Submits `made` (`nil`: there was no request type for it); the framework's error codes become typed errors.
    func submit(_ made: Scheduler.Request?, identifier: String) throws(TaskSchedulingError) {
        guard let made else {
            throw TaskSchedulingError(.other, identifier: identifier, detail: "no request type for it")
        }
        do {
            try value.submit(made)
        } catch {
            throw SystemTaskScheduler<Scheduler>.schedulingError(error, identifier: identifier)
        }
    }
}

/// A `BGTask` as a ``LaunchedTask`` (and, subclassed, a `BGContinuedProcessingTask`).
class SystemLaunchedTask<Task: ScheduledTaskMirroring>: LaunchedTask, @unchecked Sendable {  // see below
    // `BGTask.h` declares `expirationHandler` atomic and `identifier` read-only; `setTaskCompleted` is documented for
    // use from the app's work queues: each member is safe on any thread.
    let task: Task

    init(_ task: Task) {
        self.task = task
    }

    var identifier: String { task.identifier }

    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) {
        task.expirationHandler = handler
    }

    func setTaskCompleted(success: Bool) {
        task.setTaskCompleted(success: success)
    }
}
