import BackgroundTaskKit

/// One manager with many running tasks on an ``ExpirableBackend``, ready to be expired once.
///
/// Every task has a cleanup (empty), as real tasks do, so the expiry runs the cleanup path. Creating
/// the value begins the tasks; ``expire()`` times the expiry alone and checks that it ended every
/// assertion and expired every task, so a broken engine crashes the benchmark instead of flattering it.
///
/// ```swift
/// let expiry = ManagerExpiry(tasks: 1_000, coalescing: false)
/// let time = await MainActor.run { expiry.expire() }
/// ```
public struct ManagerExpiry: Sendable {
    /// The backend whose handlers ``expire()`` calls.
    public let backend = ExpirableBackend()
    /// The manager holding the tasks.
    public let manager: BackgroundTaskManager
    private let tasks: [SafeBackgroundTask]

    /// Begins `count` tasks on a new manager.
    ///
    /// - Parameters:
    ///   - count: The number of tasks.
    ///   - coalescing: Whether the manager shares one assertion among them (the default) or gives each
    ///     its own.
    public init(tasks count: Int, coalescing: Bool) {
        manager = BackgroundTaskManager(
            backend: backend,
            configuration: FaceRig.managerConfiguration(coalescing: coalescing)
        )
        tasks = (0..<count).map { [manager] _ in try! manager.beginTask("expiring", onExpiration: {}) }
    }

    /// Calls every assertion's expiration handler, as the system does when time runs out.
    ///
    /// - Returns: The time from the start of the first handler to the return of the last.
    @MainActor
    public func expire() -> Duration {
        let elapsed = ContinuousClock().measure { backend.expireAll() }
        precondition(backend.runningCount == 0, "an assertion outlived the expiry")
        precondition(tasks.allSatisfy { $0.state == .expired }, "a task was not expired")
        return elapsed
    }
}
