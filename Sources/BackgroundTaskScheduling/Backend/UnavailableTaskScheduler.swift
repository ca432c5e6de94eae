/// The backend where there is no `BGTaskScheduler` (macOS, watchOS, Linux): registrations and submissions throw
/// ``TaskSchedulingError/Code/unavailable``, so shared code learns it at once instead of waiting for launches that
/// never come.
public struct UnavailableTaskScheduler: TaskSchedulerBackend {
    /// Creates the backend.
    public init() {}

    /// Throws ``TaskSchedulingError/Code/unavailable``.
    public func register(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) throws(TaskSchedulingError) {
        throw TaskSchedulingError(.unavailable, identifier: identifier)
    }

    /// Throws ``TaskSchedulingError/Code/unavailable``.
    public func submit(_ request: ScheduledTaskRequest) throws(TaskSchedulingError) {
        throw TaskSchedulingError(.unavailable, identifier: request.identifier)
    }

    /// Does nothing: nothing is pending.
    public func cancel(identifier: String) {}

    /// Does nothing: nothing is pending.
    public func cancelAll() {}

    /// Nothing known.
    public var environment: TaskSchedulerEnvironment { TaskSchedulerEnvironment() }
}
