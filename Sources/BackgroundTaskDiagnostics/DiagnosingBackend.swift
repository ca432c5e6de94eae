@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
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
/// It counts **system assertions**, while a `BackgroundTaskManager`'s own report counts its
/// tasks: a coalescing manager's tasks share one assertion, which appears here once, under the call
/// site of the task that began it.
///
/// The faces tell it where each task was begun and which ends are the deinit safety net's. A raw
/// ``beginBackgroundTask(named:expirationHandler:)`` call carries no call site and is counted under
/// `BackgroundTaskCallSite.unknown`; code of your own that wraps raw calls can pass its caller's
/// site with ``beginBackgroundTask(named:callSite:expirationHandler:)``.
///
/// An assertion whose expiration handler has run is reported ``BackgroundTaskEvent/Kind/expired`` at
/// once, stays among the outstanding tasks until it is ended (one that never is, is the assertion
/// the system terminates the app for), and is counted as expired, not ended, when it is.
/// The handler is timed: observers get ``BackgroundTaskEvent/Kind/expirationHandlerEntered`` and
/// ``BackgroundTaskEvent/Kind/expirationHandlerExited(duration:)`` around it.
public final class DiagnosingBackend: BackgroundTaskBackend, BackgroundTaskDiagnosing, CallSiteAwareBackend,
    DefaultBackendFallThroughReceiving, CriticalMomentReporting,
    @unchecked Sendable  // mutable state only under the diagnostics' lock
{
    /// What a diagnosing backend watches for: the same as any owner's diagnostics.
    public typealias Configuration = BackgroundTaskDiagnostics.Configuration

    /// The backend every call is passed to.
    public let wrapped: any BackgroundTaskBackend
    /// The configuration in force.
    public let configuration: Configuration
    private let wrappedHooks: BackgroundTaskBackendHooks?
    /// The ledger, its lock and clock (the wrapped backend's: its virtual time on the simulator), the
    /// report and the observers.
    public let diagnostics: BackgroundTaskDiagnostics
    /// The assertions held, by identifier. Guarded by the diagnostics' lock, which makes every
    /// access exclusive: no run-time exclusivity checks.
    @exclusivity(unchecked) private var held = IdentifierTable<RecordedEntry>()
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
        self.diagnostics = BackgroundTaskDiagnostics(
            configuration: configuration, clock: wrappedHooks?.clock ?? .system)
        hooks = BackgroundTaskBackendHooks(
            callSiteAware: self, clock: wrappedHooks?.clock, mainActorHop: wrappedHooks?.mainActorHop,
            inFlightBeginWaitLimit: wrappedHooks?.inFlightBeginWaitLimit,
            windDownRealTimeLimit: wrappedHooks?.windDownRealTimeLimit, system: wrappedHooks?.system)
    }

    /// Tells the engine the call sites and safety-net ends, and passes the wrapped backend's clock on.
    public var engineHooks: BackgroundTaskBackendHooks? { hooks }

    /// Passes a fall-through report on to the wrapped backend (the simulator records it).
    package func defaultBackendFellThrough(at callSite: BackgroundTaskCallSite) {
        (wrapped as? any DefaultBackendFallThroughReceiving)?.defaultBackendFellThrough(at: callSite)
    }

    // MARK: - BackgroundTaskBackend

    /// Begins an assertion through the wrapped backend, counted under `BackgroundTaskCallSite.unknown`.
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
        let now = diagnostics.clock.now()
        let entry = RecordedEntry(number: 0, name: name, callSite: callSite, beganAt: now)
        diagnostics.began(entry, at: now)
        let handler = expirationHandler.map { handler in
            { @MainActor @Sendable [self] in self.runExpirationHandler(handler, entry: entry) }
        }
        let identifier =
            if let callSiteAware = wrappedHooks?.callSiteAware, callSite != .unknown {
                callSiteAware.beginBackgroundTask(named: name, callSite: callSite, expirationHandler: handler)
            } else {
                wrapped.beginBackgroundTask(named: name, expirationHandler: handler)
            }
        diagnostics.withLedger(at: nil) { ledger, tasks in
            guard let identifier else {
                ledger.noteFinished(entry, as: .notGranted)
                tasks.remove(entry)
                return
            }
            // Nobody can end `identifier` before this begin returns it, so it is recorded in time.
            held.insert(entry, for: identifier.rawValue)
            // A handler the system ran inside this begin has already reported the expiry: no `began`
            // after it.
            ledger.noteGranted(entry, announce: !entry.recorderMarks.expiryReported)
        }
        return identifier
    }

    /// Ends an assertion through the wrapped backend.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        endBackgroundTask(identifier, bySafetyNet: false)
    }

    /// Ends an assertion through the wrapped backend, counted as caught by the safety net.
    package func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        let lastEnded = diagnostics.withLedger(at: diagnostics.clock.now()) { ledger, tasks -> Bool in
            ledger.checkStale(in: &tasks)
            // A foreign or ended identifier: nothing to record.
            guard let entry = held.remove(identifier.rawValue) else { return false }
            if entry.recorderMarks.expiryReported {
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

    /// The assertions held, oldest first, for a flight recorder's snapshot (`BackgroundTaskFieldTelemetry`).
    package func heldTasks(limit: Int, maximumNameLength: Int) -> (tasks: [HeldTaskSummary], omitted: Int) {
        diagnostics.heldTasks(limit: limit, maximumNameLength: maximumNameLength)
    }

    // MARK: - Private

    /// The system's handler for `entry`'s assertion: reports the expiry, then times the caller's
    /// handler.
    @MainActor
    private func runExpirationHandler(_ handler: @MainActor @Sendable () -> Void, entry: RecordedEntry) {
        let reported = diagnostics.handlerEntered(entry)
        let start = diagnostics.clock.now()
        handler()
        guard reported else { return }
        diagnostics.handlerExited(entry, start: start, end: diagnostics.clock.now())
    }
}
