@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// The diagnostics of one owner: a ``DiagnosingBackend``, a `BackgroundTaskTracer`, or a
/// `BackgroundTaskManager` created with diagnostics. It answers what the owner's tasks did, per
/// call site, which are still running, and tells observers as it happens.
///
/// ```swift
/// let uploads = BackgroundTaskManager(configuration: .init(), diagnostics: .init(staleTaskAge: 30))
/// uploads.diagnostics?.addObserver { event in log.info("\(event)") }
/// print(uploads.diagnostics?.report() ?? "")
/// ```
///
/// Each owner has one, which keeps its ledger under the owner's own lock (a manager's engine lock),
/// so events come in the order the owner saw the operations. Observers run on queues of their own,
/// never under that lock.
public final class BackgroundTaskDiagnostics: @unchecked Sendable {  // state only under `lock`
    /// What diagnostics watch for.
    public struct Configuration: Sendable, Equatable {
        /// Age at which a running task is reported stale (``BackgroundTaskEvent/Kind/stale(age:)``),
        /// checked on every begin and end and by ``BackgroundTaskDiagnostics/checkStaleTasks()``;
        /// `nil`, negative, NaN or infinite turn the check off. Default 30 s, the age of iOS's own
        /// warning. A coalescing manager's shared assertion is checked too: its stale event has task
        /// number 0 and the shared assertion's name.
        public var staleTaskAge: TimeInterval? = 30
        /// Held assertions at which observers are warned (``BackgroundTaskEvent/Kind/limitApproaching(outstanding:limit:)``
        /// at 80 % of it); `nil`, `0` or less turn the warning off. Default 1000, about iOS's own
        /// limit, beyond which the app is killed with `0xbada5e47`. A manager warns at 80 % of its
        /// own `maximumOutstandingTasks` instead.
        public var assertionLimit: Int? = 1000

        /// The defaults: stale after 30 s, limit 1000.
        public init() {}

        /// A configuration with the values given and the defaults for the rest.
        ///
        /// - Parameters:
        ///   - staleTaskAge: See ``staleTaskAge``.
        ///   - assertionLimit: See ``assertionLimit``.
        public init(staleTaskAge: TimeInterval? = 30, assertionLimit: Int? = 1000) {
            self.staleTaskAge = staleTaskAge
            self.assertionLimit = assertionLimit
        }
    }

    /// The owner's lock: every ledger and list access is under it.
    package let lock: EngineLock
    /// The owner's clock (the simulator's virtual time, or the system's).
    package let clock: BackendClock
    /// Reached only through ``withLedger(at:_:)`` (under the lock).
    private let ledger: TaskLedger
    /// A manager's engine, whose list holds the running tasks; `nil`: the list is ``ownTasks``.
    private let engine: TaskEngine?
    /// What events name as their source: a manager's engine, or these diagnostics (one per backend
    /// or tracer).
    private var source: ObjectIdentifier { ObjectIdentifier(engine ?? self) }
    /// A diagnosing backend's or a tracer's running assertions, in begin order.
    @exclusivity(unchecked) private var ownTasks = TaskList()
    @exclusivity(unchecked) private var nextNumber: UInt64 = 1

    /// Diagnostics for a diagnosing backend or a tracer, with a lock and list of their own.
    package init(configuration: Configuration, clock: BackendClock) {
        self.lock = EngineLock()
        self.clock = clock
        self.ledger = TaskLedger(limit: configuration.assertionLimit, staleTaskAge: configuration.staleTaskAge)
        self.engine = nil
    }

    /// Diagnostics for a manager's engine, recorded by `ledger` (its recorder) under its lock.
    package init(engine: TaskEngine, ledger: TaskLedger) {
        self.lock = engine.lock
        self.clock = engine.clock
        self.ledger = ledger
        self.engine = engine
    }

    // MARK: - Reading

    /// What the owner's tasks did, per call site, and which are still running: the report that
    /// points at the line that leaks. See `Documentation/Diagnostics.md`.
    public func report() -> BackgroundTaskReport {
        withLedger(at: clock.now()) { ledger, tasks in ledger.report(of: tasks) }
    }

    /// The tasks (a backend's or tracer's: assertions) still running, in begin order, with their
    /// names, call sites and ages.
    public var outstandingTasks: [OutstandingBackgroundTask] {
        withLedger(at: clock.now()) { ledger, tasks in ledger.outstanding(of: tasks) }
    }

    /// Adds an observer of the owner's task events from now on. Each observer gets them in order, on
    /// a queue of its own, never under a lock.
    ///
    /// - Returns: A handle that removes the observer (``BackgroundTaskObserverHandle/remove()``).
    @discardableResult
    public func addObserver(_ observer: any BackgroundTaskObserver) -> BackgroundTaskObserverHandle {
        let registration = ObserverRegistration(observer, ownerLock: lock, source: source)
        lock.withLock { ledger.addObserver(registration) }
        // Strong: a weak reference would give the diagnostics a side table, slowing every retain.
        return BackgroundTaskObserverHandle { [self] in
            lock.withLock { ledger.removeObserver(registration) }
        }
    }

    /// Adds a closure that observes the owner's task events.
    ///
    /// - Returns: A handle that removes the observer.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (BackgroundTaskEvent) -> Void)
        -> BackgroundTaskObserverHandle
    {
        addObserver(ClosureBackgroundTaskObserver(handler))
    }

    /// Reports running tasks that became stale since the last begin or end. The package runs no
    /// thread or timer of its own: call this from a timer of yours if tasks may sit idle for long.
    public func checkStaleTasks() {
        if let engine { return engine.checkStaleTasks() }
        withLedger(at: clock.now()) { ledger, tasks in ledger.checkStale(in: &tasks) }
    }

    /// Waits until every observer has received the events so far (for tests). Called on the main actor, it also
    /// delivers what main-actor observers (``MainActorBackgroundTaskObserver``) have pending, at once: a synchronous
    /// test holds the main actor, so their usual delivery could not come before the test looks.
    public func waitForObservers() {
        let registrations = lock.withLock { ledger.observers }
        for registration in registrations {
            registration.waitUntilDelivered()
        }
        guard MainActorContext.isCurrent else { return }
        MainActor.assumeIsolated {
            for case let adapter as MainActorObserverAdapter in registrations.map(\.observer) { adapter.deliver() }
        }
    }

    /// The assertions held, oldest first, for a flight recorder's snapshot (`BackgroundTaskFieldTelemetry`).
    package func heldTasks(limit: Int, maximumNameLength: Int) -> (tasks: [HeldTaskSummary], omitted: Int) {
        withLedger(at: clock.now()) { ledger, tasks in
            ledger.heldTasks(of: tasks, limit: limit, nameLength: maximumNameLength)
        }
    }

    // MARK: - Recording (a diagnosing backend's and a tracer's bookkeeping)

    /// Runs `body` under the lock with the ledger and the list, at time `now` (when given: the time
    /// of its events).
    package func withLedger<Result>(
        at now: TimeInterval?,
        _ body: (TaskLedger, inout TaskList) -> Result
    ) -> Result {
        // A manager's: its engine's lock, list and time (the engine sets the time of its recorder, this ledger).
        if let engine { return engine.withLock(at: now) { state in body(ledger, &state.tasks) } }
        return lock.withLock {
            if let now { ledger.operationTime = now }
            return body(ledger, &ownTasks)
        }
    }

    /// Numbers `entry`, counts its begin and links it among the running ones, at `now`.
    package func began(_ entry: TaskListEntry, at now: TimeInterval) {
        withLedger(at: now) { ledger, tasks in
            entry.number = nextNumber
            nextNumber += 1
            ledger.checkStale(in: &tasks)
            ledger.noteBegin(entry)
            tasks.append(entry)
            ledger.noteRunning(entry)
        }
        // On a virtual clock (the simulator), check when this one turns stale, as the simulator
        // warns then. Never a timer on a real clock.
        if clock.isVirtual, let age = ledger.staleTaskAge {
            clock.schedule(age) { [weak self] in self?.checkStaleTasks() }
        }
    }

    /// The owner's handler for `entry` is about to run: reports the expiry once. Returns whether
    /// this call reported it (and the exit should be reported too).
    package func handlerEntered(_ entry: TaskListEntry) -> Bool {
        withLedger(at: clock.now()) { ledger, _ in
            guard ledger.noteExpiring(entry) else { return false }
            ledger.noteExpirationHandlerEntered(entry)
            return true
        }
    }

    /// The owner's handler for `entry`, entered at `start`, returned at `end`.
    package func handlerExited(_ entry: TaskListEntry, start: TimeInterval, end: TimeInterval) {
        withLedger(at: end) { ledger, _ in
            entry.recorderMarks.expiryHandlerReturned = true
            ledger.noteExpirationHandlerExited(entry, duration: end - start)
        }
    }
}

/// What has diagnostics of its own: ``DiagnosingBackend`` and `BackgroundTaskTracer`. Their report,
/// observers and checks are their ``diagnostics``'s.
public protocol BackgroundTaskDiagnosing: AnyObject, Sendable {
    /// The diagnostics of everything begun through this owner.
    var diagnostics: BackgroundTaskDiagnostics { get }
}

extension BackgroundTaskDiagnosing {
    /// ``BackgroundTaskDiagnostics/report()``.
    public func report() -> BackgroundTaskReport { diagnostics.report() }

    /// ``BackgroundTaskDiagnostics/outstandingTasks``.
    public var outstandingTasks: [OutstandingBackgroundTask] { diagnostics.outstandingTasks }

    /// ``BackgroundTaskDiagnostics/addObserver(_:)-(BackgroundTaskObserver)``.
    @discardableResult
    public func addObserver(_ observer: any BackgroundTaskObserver) -> BackgroundTaskObserverHandle {
        diagnostics.addObserver(observer)
    }

    /// ``BackgroundTaskDiagnostics/addObserver(_:)-((BackgroundTaskEvent)->Void)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (BackgroundTaskEvent) -> Void)
        -> BackgroundTaskObserverHandle
    {
        diagnostics.addObserver(handler)
    }

    /// ``BackgroundTaskDiagnostics/checkStaleTasks()``.
    public func checkStaleTasks() { diagnostics.checkStaleTasks() }

    /// ``BackgroundTaskDiagnostics/waitForObservers()``.
    public func waitForObservers() { diagnostics.waitForObservers() }
}
