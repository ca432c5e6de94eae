import Foundation

/// A backend that passes every call through to another one and keeps the diagnostics ledger of every
/// assertion begun through it: by any face, by managers, and by raw calls.
///
/// Wrap the app's backend once and make it the default, and every task anywhere in the app shows up
/// in one report, keyed by the line that began it:
///
/// ```swift
/// let diagnostics = DiagnosingBackend(wrapping: .platformDefault)
///
/// withBackgroundTaskBackend(diagnostics) {
///     // SafeBackgroundTask, ScopedBackgroundTask, withBackgroundTask and managers created in here
///     // begin through `diagnostics`.
/// }
/// diagnostics.addObserver { event in analytics.record(event) }
/// print(diagnostics.report())
/// ```
///
/// It counts **system assertions**, while a ``BackgroundTaskManager``'s own report counts its
/// tasks: a coalescing manager's tasks share one assertion, which appears here once, under the call
/// site of the task that began it.
///
/// The faces tell it where each task was begun and which ends are the deinit safety net's. A raw
/// ``beginBackgroundTask(named:expirationHandler:)`` call carries no call site and is counted under
/// ``BackgroundTaskCallSite/unknown``; code of your own that wraps raw calls can pass its caller's
/// site with ``beginBackgroundTask(named:callSite:expirationHandler:)``.
///
/// An assertion whose expiration handler has run is reported ``BackgroundTaskEvent/Kind/expired`` at
/// once, stays among the outstanding tasks until it is ended (one that never is, is the assertion
/// the system terminates the app for), and is counted as expired, not ended, when it is.
/// The handler is timed: observers get ``BackgroundTaskEvent/Kind/expirationHandlerEntered`` and
/// ``BackgroundTaskEvent/Kind/expirationHandlerExited(duration:)`` around it.
public final class DiagnosingBackend: BackgroundTaskBackend, CallSiteAwareBackend, DefaultBackendFallThroughReceiving,
    CriticalMomentReporting,
    @unchecked Sendable  // mutable state only under `lock`
{
    /// What a diagnosing backend watches for.
    public struct Configuration: Sendable, Equatable {
        /// Age at which an assertion still held is reported stale (``BackgroundTaskEvent/Kind/stale(age:)``),
        /// checked on every begin and end and by ``DiagnosingBackend/checkStaleTasks()``; `nil`,
        /// negative, NaN or infinite turn the check off. Default 30 s, the age of iOS's own warning.
        public var staleTaskAge: TimeInterval? = 30
        /// Held assertions at which observers are warned (``BackgroundTaskEvent/Kind/limitApproaching(outstanding:limit:)``
        /// at 80 % of it); `nil` turns the warning off, and so does `0` or less. Default 1000, about
        /// iOS's own limit, beyond which the app is killed with `0xbada5e47`. `Int.max` is accepted
        /// (the warning then never comes).
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

    /// The backend every call is passed to.
    public let wrapped: any BackgroundTaskBackend
    /// The configuration in force.
    public let configuration: Configuration
    /// The wrapped backend's clock: its virtual time on the simulator, the system's uptime otherwise.
    private let clock: BackendClock
    private let wrappedHooks: BackgroundTaskBackendHooks?
    private let lock = EngineLock()
    private let ledger: TaskLedger
    // Guarded by `lock`, which makes every access exclusive: no run-time exclusivity checks.
    @exclusivity(unchecked) private var nextNumber: UInt64 = 1
    /// The assertions held, by identifier.
    @exclusivity(unchecked) private var held = IdentifierTable<LedgerEntry>()
    /// The assertions running, in begin order.
    @exclusivity(unchecked) private var tasks = TaskList()
    /// Told synchronously, outside the lock, of the moments a flight recorder must write at once.
    package let criticalMoments = CriticalMoments()
    /// Its hooks, made once (set at the end of `init`, read-only after).
    @exclusivity(unchecked) private var hooks: BackgroundTaskBackendHooks?

    /// Wraps a backend.
    ///
    /// - Parameters:
    ///   - backend: The backend to pass calls to; on a backend with a clock of its own (the
    ///     simulator), ages are measured in its time.
    ///   - configuration: What to watch for.
    public init(wrapping backend: any BackgroundTaskBackend, configuration: Configuration = Configuration()) {
        self.wrapped = backend
        self.configuration = configuration
        self.wrappedHooks = backend.engineHooks
        self.clock = wrappedHooks?.clock ?? .system
        self.ledger = TaskLedger(limit: configuration.assertionLimit, staleTaskAge: configuration.staleTaskAge)
        hooks = BackgroundTaskBackendHooks(
            callSiteAware: self, clock: wrappedHooks?.clock, mainActorHop: wrappedHooks?.mainActorHop,
            inFlightBeginWaitLimit: wrappedHooks?.inFlightBeginWaitLimit)
    }

    /// Tells the engine the call sites and safety-net ends, and passes the wrapped backend's clock on.
    public var engineHooks: BackgroundTaskBackendHooks? { hooks }

    /// Passes a fall-through report on to the wrapped backend (the simulator records it).
    package func defaultBackendFellThrough(at callSite: BackgroundTaskCallSite) {
        (wrapped as? any DefaultBackendFallThroughReceiving)?.defaultBackendFellThrough(at: callSite)
    }

    // MARK: - BackgroundTaskBackend

    /// Begins an assertion through the wrapped backend, counted under ``BackgroundTaskCallSite/unknown``.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        beginBackgroundTask(named: name, callSite: .unknown, expirationHandler: expirationHandler)
    }

    /// Begins an assertion through the wrapped backend, counted under `callSite`.
    ///
    /// - Parameters:
    ///   - name: The assertion's name.
    ///   - callSite: Where the task was begun: for a wrapper of your own, its caller's
    ///     `#fileID`, `#line` and `#function`.
    ///   - expirationHandler: Passed on, timed for the observers; `nil` stays `nil`.
    /// - Returns: The wrapped backend's identifier, or `nil` when it did not grant one.
    public func beginBackgroundTask(
        named name: String?,
        callSite: BackgroundTaskCallSite,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let now = clock.now()
        let entry = LedgerEntry(number: 0, name: name, callSite: callSite, beganAt: now)
        withLock(at: now) {
            entry.number = nextNumber
            nextNumber += 1
            ledger.checkStale(in: &tasks)
            ledger.noteBegin(entry)
            tasks.append(entry)
            ledger.noteRunning(entry)
        }
        scheduleStaleCheck()
        let handler = expirationHandler.map { handler in
            { @MainActor @Sendable [self] in self.runExpirationHandler(handler, entry: entry) }
        }
        let identifier =
            if let callSiteAware = wrappedHooks?.callSiteAware, callSite != .unknown {
                callSiteAware.beginBackgroundTask(named: name, callSite: callSite, expirationHandler: handler)
            } else {
                wrapped.beginBackgroundTask(named: name, expirationHandler: handler)
            }
        withLock(at: nil) {
            guard let identifier else {
                ledger.noteFinished(entry, as: .notGranted)
                tasks.remove(entry)
                return
            }
            // Nobody can end `identifier` before this begin returns it, so it is recorded in time.
            held.insert(entry, for: identifier.rawValue)
            // A handler the system ran inside this begin has already reported the expiry: no `began`
            // after it.
            ledger.noteGranted(entry, announce: !entry.expiryReported)
        }
        return identifier
    }

    /// Ends an assertion through the wrapped backend.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        endBackgroundTask(identifier, bySafetyNet: false)
    }

    /// Ends an assertion through the wrapped backend, counted as caught by the safety net.
    package func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        let lastEnded = withLock(at: clock.now()) { () -> Bool in
            ledger.checkStale(in: &tasks)
            // A foreign or ended identifier: nothing to record.
            guard let entry = held.remove(identifier.rawValue) else { return false }
            if entry.expiryReported {
                ledger.noteFinished(entry, as: .expired, announce: false)
            } else {
                ledger.noteFinished(entry, as: bySafetyNet ? .endedBySafetyNet : .ended)
            }
            tasks.remove(entry)
            return held.count == 0
        }
        // Before the system hears of it: once nothing is held, the app may be suspended at once.
        if lastEnded { criticalMoments.report(.lastTaskEnded) }
        if let callSiteAware = wrappedHooks?.callSiteAware {
            callSiteAware.endBackgroundTask(identifier, bySafetyNet: bySafetyNet)
        } else {
            wrapped.endBackgroundTask(identifier)
        }
    }

    /// Passes the news on to the wrapped backend, when it wants call sites (the simulator).
    package func sharedTaskEndedBySafetyNet(named name: String?, callSite: BackgroundTaskCallSite) {
        wrappedHooks?.callSiteAware?.sharedTaskEndedBySafetyNet(named: name, callSite: callSite)
    }

    /// The wrapped backend's report of the app's state.
    public var applicationStateReporting: (any ApplicationStateReporting)? {
        wrapped.applicationStateReporting
    }

    /// The wrapped backend's time remaining.
    public var backgroundTimeRemaining: TimeInterval? {
        wrapped.backgroundTimeRemaining
    }

    // MARK: - Diagnostics

    /// What the assertions begun through this backend did, per call site, and which are still held.
    /// See `Documentation/Diagnostics.md`.
    public func report() -> BackgroundTaskReport {
        withLock(at: clock.now()) { ledger.report(of: tasks) }
    }

    /// The assertions still held, in begin order, with their names, call sites and ages.
    public var outstandingTasks: [OutstandingBackgroundTask] {
        withLock(at: clock.now()) { ledger.outstanding(of: tasks) }
    }

    /// Adds an observer of the events of every assertion begun through this backend from now on.
    /// Each observer gets them in order, on a queue of its own, never under a lock.
    ///
    /// - Returns: A handle that removes the observer.
    @discardableResult
    public func addObserver(_ observer: any BackgroundTaskObserver) -> BackgroundTaskObserverHandle {
        ledger.addObserver(observer, ownerLock: lock, source: self)
    }

    /// Adds a closure that observes the events of every assertion begun through this backend.
    ///
    /// - Returns: A handle that removes the observer.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (BackgroundTaskEvent) -> Void)
        -> BackgroundTaskObserverHandle
    {
        addObserver(ClosureBackgroundTaskObserver(handler))
    }

    /// Reports assertions that became stale since the last begin or end. The package runs no thread
    /// or timer of its own: call this from a timer of yours if assertions may sit idle for long.
    public func checkStaleTasks() {
        withLock(at: clock.now()) { ledger.checkStale(in: &tasks) }
    }

    /// The assertions held, oldest first, for a flight recorder's snapshot (`BackgroundTaskFieldTelemetry`).
    package func heldTasks(limit: Int, maximumNameLength: Int) -> (tasks: [HeldTaskSummary], omitted: Int) {
        withLock(at: clock.now()) { ledger.heldTasks(of: tasks, limit: limit, nameLength: maximumNameLength) }
    }

    /// Waits until every observer has received the events so far (for tests).
    public func waitForObservers() {
        ledger.waitForObservers(ownerLock: lock)
    }

    // MARK: - Private

    /// The system's handler for `entry`'s assertion: reports the expiry, then times the caller's
    /// handler.
    @MainActor
    private func runExpirationHandler(_ handler: @MainActor @Sendable () -> Void, entry: LedgerEntry) {
        let reported = withLock(at: clock.now()) { () -> Bool in
            guard ledger.noteExpiring(entry) else { return false }
            ledger.emit(.expirationHandlerEntered, for: entry)
            return true
        }
        let start = clock.now()
        handler()
        guard reported else { return }
        let end = clock.now()
        withLock(at: end) {
            entry.expiryHandlerReturned = true
            ledger.emit(.expirationHandlerExited(duration: end - start), for: entry)
        }
    }

    /// On a backend with a virtual clock (the simulator), checks for stale assertions once this one
    /// reaches the stale age, so the event comes with the simulator's own warning. Never a timer on a
    /// real clock.
    private func scheduleStaleCheck() {
        guard clock.isVirtual, let age = ledger.staleTaskAge else { return }
        clock.schedule(age) { [weak self] in self?.checkStaleTasks() }
    }

    /// Runs `body` under the lock at time `now` (when given; the time of its events).
    private func withLock<Result>(at now: TimeInterval?, _ body: () -> Result) -> Result {
        lock.withLock {
            if let now { ledger.operationTime = now }
            return body()
        }
    }
}
