import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// The simulator is also a `BGTaskScheduler`: pass it to `SafeTaskScheduler(backend:)`.
///
/// It models what Apple documents: launch handlers registered before the app finishes launching (after: an exception,
/// ``TerminationCode/uncaughtException``), once per identifier, for permitted identifiers
/// (``SimulatorConfiguration/permittedTaskIdentifiers``); at most 1 pending refresh and 10 pending processing requests;
/// the app launched (resumed in the background) for a pending request when the test says (``runScheduledTask(_:)``);
/// the task expired after ``SimulatorConfiguration/appRefreshTaskTime`` or ``SimulatorConfiguration/processingTaskTime``
/// (a processing task also when the person starts using the device, ``userStartsUsingDevice()``): its expiration
/// handler called on another thread, or without one the task marked complete and unsuccessful; a task not completed
/// within ``SimulatorConfiguration/handlerTimeBudget`` after its handler, terminated with `0x8badf00d`.
///
/// ```swift
/// let simulator = BackgroundTaskSimulator()
/// let scheduler = SafeTaskScheduler(backend: simulator)
/// try scheduler.register("com.example.refresh") { try await feed.refresh() }
/// simulator.finishLaunching()
/// try scheduler.submit(.appRefresh("com.example.refresh"))
/// simulator.runScheduledTask("com.example.refresh")
/// ```
extension BackgroundTaskSimulator: TaskSchedulerBackend {
    /// Registers a launch handler as `BGTaskScheduler` does: after launch, or twice, the app is terminated (the
    /// framework's exception).
    /// - Throws: `TaskSchedulingError/Code/notPermitted` for an identifier not in the permitted list.
    public func register(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) throws(TaskSchedulingError) {
        let permitted = state.withLock { $0.registerScheduledTask(identifier, launchHandler: launchHandler) }
        guard permitted else {
            throw TaskSchedulingError(
                .notPermitted, identifier: identifier, detail: "refused by the simulated scheduler")
        }
    }

    /// Accepts a request, replacing a pending one of the same identifier.
    /// - Throws: `TaskSchedulingError`: not permitted (identifier or background mode), too many pending, or
    ///   `TaskSchedulingError/Code/unavailable` once terminated.
    public func submit(_ request: ScheduledTaskRequest) throws(TaskSchedulingError) {
        if let refusal = state.withLock({ $0.submitScheduledTask(request) }) {
            throw TaskSchedulingError(refusal, identifier: request.identifier, detail: "the simulated scheduler")
        }
    }

    /// Cancels the pending request of `identifier`.
    public func cancel(identifier: String) {
        state.withLock { state in
            state.scheduler.pending.removeAll { $0.identifier == identifier }
            state.scheduler.continuedQueue.removeAll { $0.identifier == identifier }
        }
    }

    /// Cancels every pending request.
    public func cancelAll() {
        state.withLock { state in
            state.scheduler.pending.removeAll()
            state.scheduler.continuedQueue.removeAll()
        }
    }

    /// The simulated app's permitted identifiers and background modes (from the configuration) and its launch.
    public var environment: TaskSchedulerEnvironment { state.withLock { $0.environment } }

    /// The simulator's virtual clock and main thread for the engine's launched tasks.
    public var launchedTaskHooks: BackgroundTaskBackendHooks? {
        BackgroundTaskBackendHooks(
            callSiteAware: nil, clock: virtualClock,
            mainActorHop: { [mainThreadPump] work in mainThreadPump.hop(work) },
            windDownRealTimeLimit: windDownRealTimeLimit, system: ObjectIdentifier(self))
    }

    // MARK: - Driving the scheduler

    /// The app finishes launching: launch handlers registered from now on are the framework's exception. Also
    /// implied by the first ``enterBackground()``, ``advance(by:)-(TimeInterval)`` or ``runScheduledTask(_:)``.
    @MainActor public func finishLaunching() {
        state.withLock { $0.scheduler.hasFinishedLaunching = true }
    }

    /// The system launches the app for the pending request of `identifier`: the request leaves the pending list, a
    /// suspended app is resumed in the background, and the launch handler runs on another thread (the simulator waits
    /// for it). No pending request records ``SimulatorMisuse/noPendingTaskRequest(identifier:)``; no launch handler
    /// terminates the app (the framework's exception).
    /// - Parameter identifier: The task identifier.
    @MainActor public func runScheduledTask(_ identifier: String) {
        // Resumed from suspension, the app stays "in the background" for state observers: nothing to tell them.
        guard let (number, handler) = state.withLock({ $0.launchScheduledTask(identifier) }) else { return }
        mainThreadPump.runQueuedWork()  // work sent to the main actor while suspended runs now
        let task = SimulatedLaunchedTask(identifier: identifier, number: number, simulator: self)
        _ = HandlerInvoker.runOffMainActor(
            { handler(task) }, pump: mainThreadPump, timeout: offMainHandlerTimeout)
        state.withLock { $0.launchHandlerReturned(number) }
        mainThreadPump.runQueuedWork()
    }

    /// The person starts using the device: the system expires the processing tasks running now (their handlers are
    /// called at once); refresh tasks go on.
    @MainActor public func userStartsUsingDevice() {
        state.withLock { state in
            for (number, task) in state.scheduler.running where task.isProcessing && !task.expired {
                state.scheduler.running[number]?.expiresAt = state.now
            }
        }
        advance(by: 0)
    }

    /// The requests pending now, in submission order.
    public var pendingTaskRequests: [ScheduledTaskRequest] { state.withLock { $0.scheduler.pending } }

    /// The identifiers of the launched tasks not completed yet, in launch order.
    public var runningScheduledTasks: [String] {
        state.withLock { state in
            state.scheduler.running.keys.sorted().compactMap { state.scheduler.running[$0]?.identifier }
        }
    }

    /// Calls a launched task's expiration handler on another thread and waits for it (at most
    /// ``offMainHandlerTimeout``), running meanwhile what it sends to the main actor.
    @MainActor func callScheduledExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
        let returned = HandlerInvoker.runOffMainActor(handler, pump: mainThreadPump, timeout: offMainHandlerTimeout)
        if returned == .timedOut { state.withLock { $0.record(.misuse(.offMainHandlerDidNotReturn(nil))) } }
    }
}

/// A task the simulated scheduler launched (`BGTask`).
final class SimulatedLaunchedTask: LaunchedTask {
    let identifier: String
    let number: Int
    let simulator: BackgroundTaskSimulator

    init(identifier: String, number: Int, simulator: BackgroundTaskSimulator) {
        self.identifier = identifier
        self.number = number
        self.simulator = simulator
    }

    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) {
        simulator.state.withLock { state in
            guard state.scheduler.running[number]?.expired == false else { return }  // cleared once called
            state.scheduler.running[number]?.handler = handler
        }
    }

    func setTaskCompleted(success: Bool) {
        simulator.state.withLock { $0.completeScheduledTask(number, identifier: identifier, success: success) }
    }
}

/// The simulator offers continued processing (iOS 26): submission only from the foreground, wildcard identifiers
/// (``SimulatorConfiguration/permittedTaskIdentifiers``), ``SimulatorConfiguration/maximumRunningContinuedProcessingTasks``
/// at once with `.queue` waiting and `.fail` refused (`immediateRunIneligible`), the GPU only where
/// ``SimulatorConfiguration/supportsBackgroundGPU``, expiry of a job that reports no progress for
/// ``SimulatorConfiguration/continuedProcessingStallTime``, and a person's stop (``stopContinuedProcessing(_:)``).
extension BackgroundTaskSimulator: ContinuedProcessingScheduling {
    /// Itself.
    public var continuedProcessing: (any ContinuedProcessingScheduling)? { self }

    /// ``SimulatorConfiguration/supportsBackgroundGPU``.
    public var supportsBackgroundGPU: Bool { configuration.supportsBackgroundGPU }

    /// Registers a continued-processing launch handler (allowed after launch).
    /// - Throws: `TaskSchedulingError/Code/notPermitted` for an identifier not in the permitted list.
    public func registerContinuedProcessing(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedContinuedProcessingTask) -> Void
    ) throws(TaskSchedulingError) {
        let permitted = state.withLock { $0.registerContinuedProcessing(identifier, launchHandler: launchHandler) }
        guard permitted else {
            throw TaskSchedulingError(
                .notPermitted, identifier: identifier, detail: "refused by the simulated scheduler")
        }
    }

    /// Accepts a request from the foreground and, if there is room, starts it at once: its launch handler runs on
    /// this thread before this returns.
    /// - Throws: `TaskSchedulingError`: from the background or not permitted (`TaskSchedulingError/Code/notPermitted`),
    ///   no room under `.fail` (`TaskSchedulingError/Code/immediateRunIneligible`).
    public func submitContinuedProcessing(_ request: ContinuedProcessingRequest) throws(TaskSchedulingError) {
        let launch = try state.withLock { $0.submitContinuedProcessing(request) }.get()
        if let launch { startContinuedTask(launch) }
    }

    /// The person stops the running job of `identifier` from its Live Activity: the app sees an expiry, as for a
    /// stall or a change of conditions (its handler is called now).
    /// - Parameter identifier: The job's identifier.
    @MainActor public func stopContinuedProcessing(_ identifier: String) {
        state.withLock { state in
            for (number, task) in state.scheduler.running
            where task.identifier == identifier && task.isContinued && !task.expired {
                state.scheduler.running[number]?.expiresAt = state.now
                state.record(.continuedProcessingStopped(identifier: identifier))
            }
        }
        advance(by: 0)
    }

    /// The continued-processing requests waiting for room, in order.
    public var queuedContinuedProcessingRequests: [ContinuedProcessingRequest] {
        state.withLock { $0.scheduler.continuedQueue }
    }

    /// Starts a queued job: its launch handler runs on another thread, waited for.
    @MainActor func callContinuedLaunchHandler(_ launch: ContinuedLaunchDue) {
        let returned = HandlerInvoker.runOffMainActor(
            { [self] in startContinuedTask(launch) }, pump: mainThreadPump, timeout: offMainHandlerTimeout)
        if returned == .timedOut { state.withLock { $0.record(.misuse(.offMainHandlerDidNotReturn(nil))) } }
    }

    private func startContinuedTask(_ launch: ContinuedLaunchDue) {
        launch.launchHandler(
            SimulatedLaunchedTask(identifier: launch.identifier, number: launch.number, simulator: self))
        state.withLock { $0.launchHandlerReturned(launch.number) }
    }
}

extension SimulatedLaunchedTask: LaunchedContinuedProcessingTask {
    func reportProgress(completed: Int64, total: Int64) {
        simulator.state.withLock { $0.noteContinuedProgress(number, completed: completed, total: total) }
    }

    func updateTitle(_ title: String, subtitle: String) {}
}
