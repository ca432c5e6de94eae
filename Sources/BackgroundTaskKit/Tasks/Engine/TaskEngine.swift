import Dispatch
import Foundation

/// The one engine behind every face: begins and ends assertions through a backend, exactly once.
///
/// All bookkeeping is in an ``EngineState`` behind one lock. Each operation computes an
/// ``EngineAction`` under the lock and performs it after unlocking, so the backend, user cleanups
/// and (later) observers are never called while the lock is held, and an expiration handler may
/// call back into the engine (end, begin, endAll) without deadlock.
///
/// The expiration handler it hands the backend may run before `beginBackgroundTask` returns, off the
/// main actor, twice, or never; in every order each assertion is ended exactly once and each cleanup
/// runs at most once.
package final class TaskEngine: Sendable {
    /// How an engine behaves; one per face or manager.
    package struct Options: Sendable {
        /// The most running tasks; one more is refused with ``BackgroundTaskError/limitReached(limit:)``.
        var maximumOutstandingTasks: Int?
        /// Below this much background time, begins are refused.
        var minimumTimeRemaining: TimeInterval?
        /// The first expiry expires every task (a manager), not just the one whose handler ran.
        var expiresAllTogether = false
        /// All tasks share one system assertion.
        var coalescing = false
        /// Coalescing: how long the shared assertion outlives its last task.
        var linger: TimeInterval = 0
        /// Coalescing: the shared assertion's name.
        var sharedAssertionName: String?
        /// How long an expiration handler that arrives off the main actor waits for the cleanups it
        /// sent to the main actor before it ends the assertions anyway.
        var offMainCleanupTimeout: TimeInterval = 1
        /// Age at which a running task is reported stale; `nil`: never.
        var staleTaskAge: TimeInterval?
        /// How long an expiration handler waits for a `beginBackgroundTask` still running on another
        /// thread, so that the assertion is ended before the handler returns.
        var inFlightBeginTimeout: TimeInterval = 1
        /// Runs the linger timer; `nil`: the backend's clock (``BackendClock/of(_:)``).
        var schedule: (@Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void)?
        /// The clock of task ages, in seconds; `nil`: the backend's clock (the simulator's virtual
        /// time, or the system uptime).
        var now: (@Sendable () -> TimeInterval)?

        /// One task alone: no cap, no guard, no coalescing.
        static let standalone = Options()
    }

    /// Names longer than this are cut to it (system logs truncate them anyway).
    package static let maximumNameLength = 256

    let backend: any BackgroundTaskBackend
    /// The backend, when it wants call sites and safety-net ends (cast once, not on every begin).
    private let callSiteAwareBackend: (any CallSiteAwareBackend)?
    let options: Options
    /// The clock of ages and the linger timer.
    private let clock: BackendClock
    private let state: Locked<EngineState>

    package init(backend: any BackgroundTaskBackend, options: Options) {
        self.backend = backend
        self.callSiteAwareBackend = backend as? any CallSiteAwareBackend
        let backendClock = BackendClock.of(backend)
        self.clock = BackendClock(
            now: options.now ?? backendClock.now,
            schedule: options.schedule ?? backendClock.schedule,
            isVirtual: backendClock.isVirtual
        )
        self.options = options
        self.state = Locked(EngineState(options: options))
        state.withLock { $0.ledger.source = ObjectIdentifier(self) }
    }

    /// Begins one task on a new standalone engine: what every face that is not in a manager does.
    package static func beginStandalone(
        _ name: String?,
        backend: (any BackgroundTaskBackend)?,
        fileID: String,
        line: Int,
        function: String,
        cleanup: ExpirationCleanup?
    ) -> (engine: TaskEngine, token: TaskToken) {
        let engine = TaskEngine(backend: DefaultBackend.resolve(backend), options: .standalone)
        let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: function)
        return (engine, engine.begin(name: name, callSite: callSite, cleanup: cleanup))
    }

    // MARK: - Operations

    /// Begins a task; its state says whether it runs.
    package func begin(
        name: String?,
        callSite: BackgroundTaskCallSite,
        cleanup: ExpirationCleanup?
    ) -> TaskToken {
        let name = Self.normalize(name)
        let remaining = options.minimumTimeRemaining == nil ? nil : backend.backgroundTimeRemaining
        let (token, action) = withState {
            $0.begin(
                name: name,
                callSite: callSite,
                cleanup: cleanup,
                remaining: remaining,
                thread: ObjectIdentifier(Thread.current)
            )
        }
        perform(action)
        if clock.isVirtual, let age = options.staleTaskAge {
            // On the simulator's clock, check when this task turns stale, as the simulator warns then.
            clock.schedule(age) { [weak self] in self?.checkStaleTasks() }
        }
        return token
    }

    /// Ends a task; idempotent, callable from any thread.
    package func end(_ token: TaskToken) {
        perform(withState { $0.end(token) })
    }

    /// Ends every running task and assertion, without running cleanups.
    package func endAll() {
        perform(withState { $0.endAll() })
    }

    /// Ends a task its owner forgot; `true` when it was still running (a leak the safety net caught).
    package func endBySafetyNet(_ token: TaskToken) -> Bool {
        let (wasRunning, action) = withState { state in
            (state.status(of: token) == .running, state.end(token, bySafetyNet: true))
        }
        perform(action)
        return wasRunning
    }

    /// Drops a finished task's record once its owner is gone.
    package func forget(_ token: TaskToken) {
        withState { $0.forget(token) }
    }

    package func status(of token: TaskToken) -> BackgroundTaskState {
        withState { $0.status(of: token) }
    }

    /// The diagnostics ledger as a report.
    package func report() -> BackgroundTaskReport {
        withState { $0.report() }
    }

    package var outstanding: [OutstandingBackgroundTask] {
        withState { $0.outstanding() }
    }

    package func record(of token: TaskToken) -> (name: String?, callSite: BackgroundTaskCallSite, age: TimeInterval)? {
        withState { state in
            state.tasks[token].map { ($0.name, $0.callSite, state.operationTime - $0.beganAt) }
        }
    }

    /// Reports running tasks that have become stale since the last check.
    package func checkStaleTasks() {
        withState { $0.checkStale() }
    }

    /// Adds an observer; it gets the events of every later operation.
    package func addObserver(_ observer: any BackgroundTaskObserver) {
        let registration = ObserverRegistration(observer)
        state.withLock { $0.ledger.observers.append(registration) }
    }

    /// Waits until every observer has received the events of the operations made so far.
    package func waitForObservers() {
        for registration in state.withLock({ $0.ledger.observers }) {
            registration.queue.sync {}
        }
    }

    /// Runs `body` under the lock and hands the events it queued to the observers' queues (enqueueing
    /// only: observers run on their own queues, never under this lock, and in the order the lock saw
    /// the operations); after unlocking, releases the cleanups it dropped.
    private func withState<Result>(_ body: (inout EngineState) -> Result) -> Result {
        var discarded: [ExpirationCleanup] = []
        let now = clock.now()
        let result = state.withLock { state in
            state.operationTime = now
            defer {
                discarded = state.discardedCleanups
                state.discardedCleanups = []
                state.ledger.flushEvents()
            }
            return body(&state)
        }
        discarded.removeAll()  // the last references may go here, outside the lock
        return result
    }

    // MARK: - Performing actions (never under the lock)

    private func perform(_ action: EngineAction) {
        switch action {
        case .none:
            return
        case .beginAssertion(let key, let name, let callSite, let begun):
            let handler: @MainActor @Sendable () -> Void = { [self] in
                let thread = ObjectIdentifier(Thread.current)
                perform(withState { $0.expire(slotKey: key, thread: thread) })
            }
            let identifier =
                if let callSiteAwareBackend {
                    callSiteAwareBackend.beginBackgroundTask(
                        named: name, callSite: callSite, expirationHandler: handler)
                } else {
                    backend.beginBackgroundTask(named: name, expirationHandler: handler)
                }
            perform(withState { $0.assertionBegan(slotKey: key, identifier: identifier) })
            begun.signal()
        case .runCleanupsThenEnd(let expiring, let identifiers, let finishesExpiry, let awaitingBegins, let bySafetyNet):
            runOnMainActor(expiring)
            for identifier in identifiers {
                if let callSiteAwareBackend {
                    callSiteAwareBackend.endBackgroundTask(identifier, bySafetyNet: bySafetyNet)
                } else {
                    backend.endBackgroundTask(identifier)
                }
            }
            for begun in awaitingBegins {
                // The begin ends its assertion as soon as it returns; let that happen before the
                // system's handler returns. Bounded: never wait on a thread that waits for us.
                if begun.wait(timeout: .now() + options.inFlightBeginTimeout) == .success { begun.signal() }
            }
            if finishesExpiry {
                withState { $0.expiryFinished() }
            }
        case .scheduleLinger(let generation):
            clock.schedule(options.linger) { [self] in
                perform(withState { $0.lingerElapsed(generation: generation) })
            }
        }
    }

    /// Runs the expiring tasks' cleanups in order on the main actor, each between the observers'
    /// "handler entered" and "handler exited" events: directly when already there (the normal case,
    /// inside the system's handler); otherwise on the main queue, waiting at most
    /// `offMainCleanupTimeout` so that the assertions are still ended inside the handler even if the
    /// main thread is busy.
    private func runOnMainActor(_ tasks: [ExpiringTask]) {
        guard tasks.contains(where: { $0.cleanup != nil }) || withState({ $0.observed }) else { return }
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { runCleanups(tasks) }
            return
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.runCleanups(tasks) }
            done.signal()
        }
        _ = done.wait(timeout: .now() + options.offMainCleanupTimeout)
    }

    @MainActor
    private func runCleanups(_ tasks: [ExpiringTask]) {
        for task in tasks {
            withState { $0.emit(.expirationHandlerEntered, for: task) }
            let start = clock.now()
            task.cleanup?()
            let duration = clock.now() - start
            withState {
                $0.emit(.expirationHandlerExited(duration: duration), for: task)
            }
        }
    }

    /// Empty or blank names become `nil`; names over ``maximumNameLength`` characters are cut.
    static func normalize(_ name: String?) -> String? {
        guard let name, !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return name.count > maximumNameLength ? String(name.prefix(maximumNameLength)) : name
    }
}
