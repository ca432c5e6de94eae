import BackgroundTaskKit
import Foundation

/// `BGTaskScheduler` made safe: every launched task is completed exactly once, on every path, and mistakes that the
/// framework answers with an exception (a launch handler registered after launch or twice) are typed errors instead.
///
/// Register each identifier at launch, submit requests whenever you like:
/// ```swift
/// // application(_:didFinishLaunchingWithOptions:), or your App's init()
/// try SafeTaskScheduler.shared.register(
///     "com.example.feed.refresh",
///     nextRequest: { .appRefresh("com.example.feed.refresh", earliestBeginDate: .now + 15 * 60) }
/// ) {
///     try await feed.refresh()  // cancelled when the system expires the task
/// }
/// try SafeTaskScheduler.shared.submit(.appRefresh("com.example.feed.refresh"))
/// ```
/// Each launch runs the work in a task of its own and calls `setTaskCompleted(success:)` once: `true` when the work
/// returns, `false` when it throws or the system expires the task. On expiry the work is cancelled, `onExpiration` runs
/// on the main actor, and the completion waits (at most `windDownLimit`) for the work to return, so that it releases
/// its file and database locks before the app is suspended. Callback code takes a ``SafeScheduledTask`` instead
/// (``register(_:onExpiration:nextRequest:fileID:line:function:launchHandler:)``), which completes itself if dropped.
///
/// > Important: Register every identifier before the app finishes launching, once; list it in the Info.plist's
/// > `BGTaskSchedulerPermittedIdentifiers`, and add the background mode it needs (`fetch` for refresh, `processing`
/// > for processing) to `UIBackgroundModes`. The scheduler checks what it can see and throws ``TaskSchedulingError``.
public final class SafeTaskScheduler: Sendable {
    /// The backend: `BGTaskScheduler`, or the simulator in tests.
    public let backend: any TaskSchedulerBackend
    /// The backend of the ordinary background task a continued-processing job falls back to; `nil`: the default
    /// (`withBackgroundTaskBackend(_:operation:)`'s, or the platform's).
    public let fallbackBackend: (any BackgroundTaskBackend)?
    private let registered = Locked(Set<String>())

    /// Creates a scheduler over a backend.
    /// - Parameters:
    ///   - backend: `BGTaskScheduler`'s (``shared`` holds it) or the simulator.
    ///   - fallbackBackend: Where a continued-processing job that cannot be submitted runs its background task
    ///     instead; `nil` for the default. Tests pass the simulator for both.
    public init(backend: any TaskSchedulerBackend, fallbackBackend: (any BackgroundTaskBackend)? = nil) {
        self.backend = backend
        self.fallbackBackend = fallbackBackend
    }

    // MARK: - Registering

    /// Registers the work to run each time the system launches the app for `identifier`.
    ///
    /// The work runs in a `Task` of its own; when it returns the task is completed successfully, when it throws
    /// unsuccessfully. On expiry it is cancelled, `onExpiration` runs on the main actor, and the task is completed
    /// unsuccessfully once the work returned or `windDownLimit` passed. `nextRequest`, if given, is submitted just
    /// before every completion (Apple's way to ask for the next run).
    /// - Parameters:
    ///   - identifier: The task identifier, listed in the Info.plist.
    ///   - windDownLimit: On expiry, how long the completion waits at most for the cancelled work to return, in
    ///     seconds (default 0.5; `0` for no wait; at most 2), as in the `async` `withBackgroundTask`.
    ///   - onExpiration: Called on the main actor when the system expires the task, after the work was cancelled.
    ///   - nextRequest: The request to submit before each completion; `nil` (or returning `nil`) submits none.
    ///   - fileID: Where the task is registered, for diagnostics; leave the default.
    ///   - line: Where the task is registered, for diagnostics; leave the default.
    ///   - function: Where the task is registered, for diagnostics; leave the default.
    ///   - work: The work.
    /// - Throws: ``TaskSchedulingError``: an empty identifier, one not permitted, registered already, or after launch.
    public func register(
        _ identifier: String,
        windDownLimit: Double = 0.5,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        nextRequest: (@Sendable () -> ScheduledTaskRequest?)? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        work: @escaping @Sendable () async throws -> Void
    ) throws(TaskSchedulingError) {
        try register(identifier) { [self] launched in
            let task = LaunchedTaskBackend(
                launched, hooks: backend.launchedTaskHooks, beforeCompletion: resubmitting(nextRequest))
            let run = LaunchedRun(
                identifier, backend: task, onExpiration: onExpiration, windDownLimit: windDownLimit,
                fileID: fileID, line: line, function: function)
            Task {
                await run.run {
                    try await work()
                    task.markSucceeded()
                }
            }
        }
    }

    /// Registers a launch handler for callback code: it gets a ``SafeScheduledTask`` to complete when the work is done.
    ///
    /// The task completes itself unsuccessfully on expiry (after `onExpiration`), and if it is released before it
    /// completed (the safety net, reported as a leak).
    /// ```swift
    /// try scheduler.register("com.example.db.cleanup", onExpiration: { database.interrupt() }) { task in
    ///     database.cleanUp { error in task.complete(success: error == nil) }
    /// }
    /// ```
    /// - Parameters:
    ///   - identifier: The task identifier, listed in the Info.plist.
    ///   - onExpiration: Called on the main actor when the system expires the task, before it completes.
    ///   - nextRequest: The request to submit before each completion; `nil` (or returning `nil`) submits none.
    ///   - fileID: Where the task is registered, for diagnostics; leave the default.
    ///   - line: Where the task is registered, for diagnostics; leave the default.
    ///   - function: Where the task is registered, for diagnostics; leave the default.
    ///   - launchHandler: Called on the system's queue with the running task.
    /// - Throws: ``TaskSchedulingError``: an empty identifier, one not permitted, registered already, or after launch.
    public func register(
        _ identifier: String,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        nextRequest: (@Sendable () -> ScheduledTaskRequest?)? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        launchHandler: @escaping @Sendable (SafeScheduledTask) -> Void
    ) throws(TaskSchedulingError) {
        try register(identifier) { [self] launched in
            let task = LaunchedTaskBackend(
                launched, hooks: backend.launchedTaskHooks, beforeCompletion: resubmitting(nextRequest))
            let safe = SafeBackgroundTask.begin(
                identifier, backend: task, onExpiration: onExpiration, fileID: fileID, line: line, function: function)
            launchHandler(SafeScheduledTask(safe, backend: task))
        }
    }

    /// Checks, then registers `launchHandler` with the backend.
    private func register(
        _ identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) throws(TaskSchedulingError) {
        try claim(identifier, beforeLaunchOnly: true) { () throws(TaskSchedulingError) in
            try backend.register(identifier: identifier, launchHandler: launchHandler)
        }
    }

    /// Checks `identifier` (the launch only for tasks other than continued processing), reserves it, and calls
    /// `register`; a refused registration frees it again.
    func claim(
        _ identifier: String,
        beforeLaunchOnly: Bool,
        register: () throws(TaskSchedulingError) -> Void
    ) throws(TaskSchedulingError) {
        try Self.checkIdentifier(identifier)
        let environment = backend.environment
        if beforeLaunchOnly, environment.hasFinishedLaunching == true {
            throw TaskSchedulingError(.registeredAfterLaunch, identifier: identifier)
        }
        if environment.permits(identifier) == false {
            throw TaskSchedulingError(
                .notPermitted, identifier: identifier, detail: "not in BGTaskSchedulerPermittedIdentifiers")
        }
        let isNew = registered.withLock { $0.insert(identifier).inserted }
        guard isNew else { throw TaskSchedulingError(.alreadyRegistered, identifier: identifier) }
        do {
            try register()
        } catch {
            registered.withLock { _ = $0.remove(identifier) }
            throw error
        }
    }

    /// The identifiers registered through this scheduler.
    public var registeredIdentifiers: Set<String> { registered.value }

    // MARK: - Requests

    /// Submits a request; one for the same identifier replaces the pending one.
    ///
    /// The identifier's launch handler must be registered through this scheduler in this launch: when iOS launches
    /// the app for an identifier with no handler, `BGTaskScheduler` raises an exception and the app is killed, so such
    /// a request is refused here instead (``TaskSchedulingError/Code/notRegistered``).
    /// ```swift
    /// try SafeTaskScheduler.shared.register("com.example.refresh") { try await feed.refresh() }  // at launch
    /// try SafeTaskScheduler.shared.submit(.appRefresh("com.example.refresh"))  // later, any time
    /// ```
    /// - Parameter request: The request.
    /// - Throws: ``TaskSchedulingError``: an empty identifier, one not permitted or without its background mode, one
    ///   with no launch handler registered, too many pending, or unavailable.
    public func submit(_ request: ScheduledTaskRequest) throws(TaskSchedulingError) {
        try Self.checkIdentifier(request.identifier)
        let environment = backend.environment
        if environment.permits(request.identifier) == false {
            throw TaskSchedulingError(
                .notPermitted, identifier: request.identifier, detail: "not in BGTaskSchedulerPermittedIdentifiers")
        }
        if let modes = environment.backgroundModes, !modes.contains(request.requiredBackgroundMode) {
            throw TaskSchedulingError(
                .notPermitted, identifier: request.identifier,
                detail: "UIBackgroundModes lacks \(request.requiredBackgroundMode)")
        }
        // Where nothing can be scheduled, that is the answer, registered or not.
        guard registered.value.contains(request.identifier) || backend is UnavailableTaskScheduler else {
            throw TaskSchedulingError(.notRegistered, identifier: request.identifier)
        }
        try backend.submit(request)
    }

    /// Cancels the pending request of `identifier`, if any.
    /// - Parameter identifier: The task identifier.
    public func cancel(_ identifier: String) {
        backend.cancel(identifier: identifier)
    }

    /// Cancels every pending request.
    public func cancelAll() {
        backend.cancelAll()
    }

    /// Submits what `nextRequest` returns, ignoring a refusal: the run is over either way.
    func resubmitting(_ nextRequest: (@Sendable () -> ScheduledTaskRequest?)?) -> (@Sendable () -> Void)? {
        guard let nextRequest else { return nil }
        return { [self] in
            guard let request = nextRequest() else { return }
            try? submit(request)
        }
    }

    static func checkIdentifier(_ identifier: String) throws(TaskSchedulingError) {
        guard identifier.contains(where: { !$0.isWhitespace }) else {
            throw TaskSchedulingError(.invalidIdentifier, identifier: identifier)
        }
    }
}
