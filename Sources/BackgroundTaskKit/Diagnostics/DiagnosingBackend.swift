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
public final class DiagnosingBackend: BackgroundTaskBackend, CallSiteAwareBackend, ClockProvidingBackend {
    /// What a diagnosing backend watches for.
    public struct Configuration: Sendable, Equatable {
        /// Age at which an assertion still held is reported stale (``BackgroundTaskEvent/Kind/stale(age:)``),
        /// checked on every begin and end and by ``DiagnosingBackend/checkStaleTasks()``; `nil` turns
        /// the check off. Default 30 s, the age of iOS's own warning.
        public var staleTaskAge: TimeInterval? = 30
        /// Held assertions at which observers are warned (``BackgroundTaskEvent/Kind/limitApproaching(outstanding:limit:)``
        /// at 80 % of it); `nil` turns the warning off. Default 1000, about iOS's own limit, beyond
        /// which the app is killed with `0xbada5e47`.
        public var assertionLimit: Int? = 1000

        /// The defaults: stale after 30 s, limit 1000.
        public init() {}
    }

    /// The backend every call is passed to.
    public let wrapped: any BackgroundTaskBackend
    /// The configuration in force.
    public let configuration: Configuration
    private let clock: BackendClock
    /// The configured stale age, validated (`nil`: no stale check).
    private let staleTaskAge: TimeInterval?
    private let wrappedCallSiteAware: (any CallSiteAwareBackend)?
    private let state: Locked<State>

    private struct State {
        var ledger: TaskLedger
        var nextKey: UInt64 = 1
        /// Ledger keys of the assertions held, by identifier.
        var keys: [BackgroundTaskIdentifier: UInt64] = [:]

        /// Records the end of a held assertion; does nothing when `identifier` is not one.
        mutating func finish(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
            guard let key = keys.removeValue(forKey: identifier) else { return }
            if ledger.entry(key)?.expired == true {
                ledger.noteFinished(key: key, as: .expired, announce: false)
            } else {
                ledger.noteFinished(key: key, as: bySafetyNet ? .endedBySafetyNet : .ended)
            }
        }
    }

    /// Wraps a backend.
    ///
    /// - Parameters:
    ///   - backend: The backend to pass calls to; on a ``BackgroundTaskBackend`` with a clock of its
    ///     own (the simulator), ages are measured in its time.
    ///   - configuration: What to watch for.
    public init(wrapping backend: any BackgroundTaskBackend, configuration: Configuration = Configuration()) {
        self.wrapped = backend
        self.configuration = configuration
        self.clock = BackendClock.of(backend)
        self.wrappedCallSiteAware = backend as? any CallSiteAwareBackend
        let staleTaskAge = configuration.staleTaskAge.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        self.staleTaskAge = staleTaskAge
        let limit = configuration.assertionLimit.map { max($0, 1) }
        self.state = Locked(State(ledger: TaskLedger(limit: limit, staleTaskAge: staleTaskAge)))
        state.withLock { $0.ledger.source = ObjectIdentifier(self) }
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
        let key = withState { state in
            let key = state.nextKey
            state.nextKey += 1
            state.ledger.checkStale()
            state.ledger.noteBegin(key: key, name: name, callSite: callSite)
            state.ledger.noteRunning(key: key, name: name, callSite: callSite)
            return key
        }
        scheduleStaleCheck()
        let handler = expirationHandler.map { handler in
            { @MainActor @Sendable [self] in self.runExpirationHandler(handler, key: key) }
        }
        let identifier =
            if let wrappedCallSiteAware, callSite != .unknown {
                wrappedCallSiteAware.beginBackgroundTask(named: name, callSite: callSite, expirationHandler: handler)
            } else {
                wrapped.beginBackgroundTask(named: name, expirationHandler: handler)
            }
        withState { state in
            guard let identifier else {
                state.ledger.noteFinished(key: key, as: .notGranted)
                return
            }
            // Nobody can end `identifier` before this begin returns it, so it is recorded in time.
            state.keys[identifier] = key
            // A handler the system ran inside this begin has already reported the expiry: no `began`
            // after it.
            state.ledger.noteGranted(key: key, announce: state.ledger.entry(key)?.expired != true)
        }
        return identifier
    }

    /// Ends an assertion through the wrapped backend.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        endBackgroundTask(identifier, bySafetyNet: false)
    }

    /// Ends an assertion through the wrapped backend, counted as caught by the safety net.
    package func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        withState { state in
            state.ledger.checkStale()
            state.finish(identifier, bySafetyNet: bySafetyNet)  // a foreign or ended identifier: nothing
        }
        if let wrappedCallSiteAware {
            wrappedCallSiteAware.endBackgroundTask(identifier, bySafetyNet: bySafetyNet)
        } else {
            wrapped.endBackgroundTask(identifier)
        }
    }

    /// The wrapped backend's time remaining.
    public var backgroundTimeRemaining: TimeInterval? {
        wrapped.backgroundTimeRemaining
    }

    /// The wrapped backend's clock, or the system uptime.
    package func currentTime() -> TimeInterval {
        clock.now()
    }

    /// Runs `work` after `delay` seconds of the wrapped backend's clock.
    package func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        clock.schedule(delay, work)
    }

    // MARK: - Diagnostics

    /// What the assertions begun through this backend did, per call site, and which are still held.
    /// See `Documentation/Diagnostics.md`.
    public func report() -> BackgroundTaskReport {
        withState { $0.ledger.report() }
    }

    /// The assertions still held, in begin order, with their names, call sites and ages.
    public var outstandingTasks: [OutstandingBackgroundTask] {
        withState { $0.ledger.outstanding() }
    }

    /// Adds an observer of the events of every assertion begun through this backend from now on.
    /// Each observer gets them in order, on a queue of its own, never under a lock.
    public func addObserver(_ observer: any BackgroundTaskObserver) {
        let registration = ObserverRegistration(observer)
        state.withLock { $0.ledger.observers.append(registration) }
    }

    /// Adds a closure that observes the events of every assertion begun through this backend.
    public func addObserver(_ handler: @escaping @Sendable (BackgroundTaskEvent) -> Void) {
        addObserver(ClosureBackgroundTaskObserver(handler))
    }

    /// Reports assertions that became stale since the last begin or end. The package runs no thread
    /// or timer of its own: call this from a timer of yours if assertions may sit idle for long.
    public func checkStaleTasks() {
        withState { $0.ledger.checkStale() }
    }

    /// Waits until every observer has received the events so far (for tests).
    public func waitForObservers() {
        for registration in state.withLock({ $0.ledger.observers }) {
            registration.queue.sync {}
        }
    }

    // MARK: - Private

    /// The system's handler for assertion `key`: reports the expiry, then times the caller's handler.
    @MainActor
    private func runExpirationHandler(_ handler: @MainActor @Sendable () -> Void, key: UInt64) {
        let entry = withState { state -> TaskLedger.Entry? in
            guard let entry = state.ledger.noteExpiring(key: key) else { return nil }
            state.ledger.emit(.expirationHandlerEntered, key: key, entry: entry)
            return entry
        }
        let start = clock.now()
        handler()
        guard let entry else { return }
        let duration = clock.now() - start
        withState {
            $0.ledger.emit(.expirationHandlerExited(duration: duration), key: key, entry: entry)
        }
    }

    /// On a backend with a virtual clock (the simulator), checks for stale assertions once this one
    /// reaches the stale age, so the event comes with the simulator's own warning. No timer otherwise.
    private func scheduleStaleCheck() {
        guard clock.isVirtual, let age = staleTaskAge else { return }
        clock.schedule(age) { [weak self] in self?.checkStaleTasks() }
    }

    /// Runs `body` under the lock at the clock's current time, then hands its events to the observers'
    /// queues (enqueueing only).
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        let now = clock.now()
        return state.withLock { state in
            state.ledger.operationTime = now
            defer { state.ledger.flushEvents() }
            return body(&state)
        }
    }
}
