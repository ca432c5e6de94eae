import BackgroundTaskKit
import Foundation

/// A deterministic model of the iOS background-task policy, on a virtual clock, to pass as the
/// backend in tests.
///
/// The classic leaks fail a unit test on any machine the way they kill an app on a device: the
/// budget runs out, every expiration handler is called in begin order on the main actor, and an
/// app that still holds an assertion is terminated with `0x8badf00d`; more than 1000 outstanding
/// assertions terminate it with `0xbada5e47`. Time moves only when the test says so.
///
/// ```swift
/// @MainActor @Test func uploadEndsItsTaskOnExpiry() throws {
///     let simulator = BackgroundTaskSimulator()
///     simulator.enterBackground()
///     let uploader = Uploader(backend: simulator)
///     uploader.start()
///     simulator.advance(by: 60)
///     try simulator.expectNoLeaks()
/// }
/// ```
///
/// `beginBackgroundTask` and `endBackgroundTask` may be called from any thread, like UIKit's. The
/// driving methods (``enterBackground()``, ``advance(by:)-(TimeInterval)``, …) are main-actor isolated, because
/// expiration handlers run on the main actor while they run.
///
/// See `Documentation/Simulator.md` for exactly which iOS rules it models and which it does not.
public final class BackgroundTaskSimulator: BackgroundTaskBackend, CallSiteAwareBackend, ApplicationStateReporting,
    DefaultBackendFallThroughReceiving
{
    let state: Locked<SimulatorState>
    let stateObservers = SimulatedStateObservers()
    /// Runs main-actor work of handlers called off the main thread while the main thread waits.
    let mainThreadPump: MainThreadPump
    /// What one driving call takes of the work other threads send it (``maximumArrivalsPerAdvance``).
    let arrivals: ArrivalIntake
    /// Holds off-main calls under ``SimulatorFault/holdOffMainCalls(_:)``.
    let callGate = CallGate()
    /// The app's threads held now: at the gate, or frozen while the app is suspended.
    let parkedThreads = ParkedThreads()
    let offMainHandlerTimeoutSetting = Locked<TimeInterval>(10)
    let windDownRealTimeLimitSetting = Locked<TimeInterval>(2)
    /// How much arriving work one advance takes (``arrivalLimit``, ``arrivalRealTimeLimit``).
    struct ArrivalLimit {
        var pieces = BackgroundTaskSimulator.maximumArrivalsPerAdvance
        var realTime = BackgroundTaskSimulator.maximumArrivalRealTimePerAdvance
    }
    let arrivalLimitSetting = Locked(ArrivalLimit())
    /// In a struct, never as the lock's state itself (see `LockedState`).
    struct AppThreadsSettled {
        var check: (@Sendable () -> Bool)?
    }
    let appThreadsSettledSetting = Locked(AppThreadsSettled())
    /// The `performExpiringActivity` activities running.
    let activities = SimulatedActivities()

    /// Creates a simulated app.
    ///
    /// - Parameters:
    ///   - configuration: The policy numbers; the defaults are those of current iOS.
    ///   - faults: System misbehaviours to inject from the start.
    public init(configuration: SimulatorConfiguration = SimulatorConfiguration(), faults: Set<SimulatorFault> = []) {
        state = Locked(SimulatorState(configuration: configuration, faults: faults))
        let arrivals = ArrivalIntake()
        self.arrivals = arrivals
        mainThreadPump = MainThreadPump(arrivals: arrivals)
        mainThreadPump.asHandlerTime = { [state] body in
            state.withLock { $0.handlerContexts.append(HandlerContext()) }
            body()
            state.withLock { _ = $0.handlerContexts.popLast() }
        }
        mainThreadPump.appRuns = { [state] in
            state.withLock { $0.appState == .foreground || $0.appState == .background }
        }
    }

    // MARK: - BackgroundTaskBackend

    /// Begins a simulated assertion, applying the injected faults.
    ///
    /// - Parameters:
    ///   - name: The task's name, shown in the simulated console messages.
    ///   - expirationHandler: Called on the main actor when background time runs out.
    /// - Returns: The identifier, or `nil` when not granted (an injected refusal; the app in the background after
    ///   this stint's expiration handlers were called, with no time left to lend, and then no handler comes; or the
    ///   app suspended or terminated).
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        beginBackgroundTask(named: name, callSite: nil, expirationHandler: expirationHandler)
    }

    /// Begins a simulated assertion for a task begun at `callSite`, so that ``termination`` and
    /// ``outstanding`` can name the line that began it. BackgroundTaskKit's engine calls this.
    package func beginBackgroundTask(
        named name: String?,
        callSite: BackgroundTaskCallSite?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let ticket = holdIfFaulted(begin: true)
        defer { if let ticket { callGate.landed(ticket) } }
        return systemBegin(named: name, callSite: callSite, expirationHandler: expirationHandler)
    }

    /// The simulated system's begin, whoever asks (the app, or an expiring activity).
    func systemBegin(
        named name: String?,
        callSite: BackgroundTaskCallSite?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let outcome = whileAppRuns { state in
            let outcome = state.begin(name: name, handler: expirationHandler)
            if case .granted(let identifier, _) = outcome, let callSite {
                state.outstanding[identifier.rawValue]?.callSite = callSite
                state.history[identifier.rawValue]?.assertion.callSite = callSite
            }
            return outcome
        }
        switch outcome {
        case .refused:
            return nil
        case .granted(let identifier, let handlerToCallNow):
            guard let handlerToCallNow else { return identifier }
            let faults = faults
            if faults.contains(.handlerOffMainActor), MainActorContext.isCurrent {
                // Called on another thread, the handler runs beside the begin, which returns without
                // waiting for it (a begin that waited would deadlock with a handler that waits for it);
                // the clock does not move until it has returned.
                // The faults of the begin apply, whatever the test sets meanwhile.
                mainThreadPump.startBackground { [self] in
                    invokeOutsideExpiry(handlerToCallNow, for: identifier, faults: faults)
                }
            } else if !faults.contains(.handlerOffMainActor), !MainActorContext.isCurrent {
                // Begun off the main thread, the handler is for the main thread: the begin returns
                // without waiting for it (a begin that waited would deadlock with a handler waiting for
                // that begin); it runs when the main thread is free, at the latest before the clock moves.
                mainThreadPump.hop { [self] in invokeOutsideExpiry(handlerToCallNow, for: identifier, faults: faults) }
            } else {
                invokeOutsideExpiry(handlerToCallNow, for: identifier)
            }
            return identifier
        }
    }

    /// Ends a simulated assertion; an identifier that is not outstanding gets iOS's
    /// "Can't end BackgroundTask" console message instead.
    ///
    /// - Parameter identifier: An identifier this simulator returned.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        endBackgroundTask(identifier, bySafetyNet: false)
    }

    /// Under ``SimulatorFault/holdOffMainCalls(_:)``, holds a call made off the main thread until it
    /// is released; returns its ticket, or `nil` when it was not held.
    private func holdIfFaulted(begin: Bool) -> Int? {
        // Never a thread of the cooperative pool: blocking it would stall every task (see `holdOffMainCalls`).
        guard !MainActorContext.isCurrent, !withUnsafeCurrentTask(body: { $0 != nil }) else { return nil }
        let holds = state.withLock { state in
            state.faults.contains { fault in
                guard case .holdOffMainCalls(let kinds) = fault else { return false }
                return begin ? kinds.holdsBegins : kinds.holdsEnds
            }
        }
        guard holds else { return nil }
        parkedThreads.enter()
        defer { parkedThreads.leave() }
        return callGate.hold()
    }

    /// `nil` in the foreground; the background budget left in the background; 0 once suspended.
    public var backgroundTimeRemaining: TimeInterval? {
        state.withLock { $0.backgroundTimeRemaining }
    }

    /// Begins a simulated assertion for a task begun at `callSite` (BackgroundTaskKit's engine).
    package func beginBackgroundTask(
        named name: String?,
        callSite: BackgroundTaskCallSite,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        beginBackgroundTask(named: name, callSite: Optional(callSite), expirationHandler: expirationHandler)
    }

    /// Ends a simulated assertion; the simulator sees a safety-net end like any other.
    package func endBackgroundTask(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool) {
        let ticket = holdIfFaulted(begin: false)
        defer { if let ticket { callGate.landed(ticket) } }
        whileAppRuns { $0.end(identifier, bySafetyNet: bySafetyNet) }
    }

    /// Runs a begin or end on the state once the app runs. A suspended app's threads are frozen: a
    /// call made off the main thread while the app is suspended waits until it runs again (or is
    /// terminated), as a thread frozen in the middle of its work goes on when the app is resumed. It
    /// waits at most ``offMainHandlerTimeout`` of real time, then goes on and is recorded as
    /// ``SimulatorMisuse/callWhileSuspended``; so is such a call made on the main thread, which a
    /// suspended app never makes.
    private func whileAppRuns<Value>(_ body: (inout SimulatorState) -> Value) -> Value {
        let offMain = !MainActorContext.isCurrent
        let deadline = Date(timeIntervalSinceNow: offMain ? offMainHandlerTimeout : 0)
        var frozen = false
        defer { if frozen { parkedThreads.leave() } }
        while true {
            let result: Value? = state.withLock { state in
                guard offMain, state.appState == .suspended, Date() < deadline else { return body(&state) }
                return nil
            }
            if let result { return result }
            if !frozen {
                frozen = true
                parkedThreads.enter()
            }
            usleep(500)  // a frozen thread: it needs nothing from the main thread to go on
        }
    }

    /// The app's threads the simulator holds now (at the gate of ``SimulatorFault/holdOffMainCalls(_:)``,
    /// or frozen while the app is suspended), by `ObjectIdentifier(Thread.current)`.
    package var parkedThreadIDs: Set<ObjectIdentifier> { parkedThreads.threads }

    /// Records a begin that went to the platform's backend while this simulator was a task-local
    /// default: the test did not reach it.
    package func defaultBackendFellThrough(at callSite: BackgroundTaskCallSite) {
        state.withLock { $0.record(.misuse(.defaultBackendNotReached(callSite))) }
    }

    /// Records a manager task the safety net ended while it shared the manager's assertion.
    package func sharedTaskEndedBySafetyNet(named name: String?, callSite: BackgroundTaskCallSite) {
        state.withLock { state in
            state.noteSafetyNetEnd(SafetyNetEnd(name: name, callSite: callSite, time: state.now, identifier: nil))
        }
    }

    // MARK: - The app's state, as UIKit reports it

    /// The simulator reports its app state like `UIApplication`'s notifications do.
    public var applicationStateReporting: (any ApplicationStateReporting)? { self }

    /// Calls `handler` on the main actor with whether the simulated app is in the background: at once
    /// with the current state (on the main actor; otherwise soon after, on the main queue), then at
    /// each ``enterBackground()``, ``enterForeground()`` and ``resumeInBackground()`` that changes it,
    /// as UIKit's `didEnterBackgroundNotification` and `willEnterForegroundNotification` do.
    ///
    /// - Parameter handler: Called with `true` in the background (suspended included).
    /// - Returns: The observation; reports stop when it is cancelled or released.
    public func observeBackgroundState(
        _ handler: @escaping @MainActor @Sendable (Bool) -> Void
    ) -> ApplicationStateObservation {
        let key = stateObservers.add(handler)
        let report: @MainActor @Sendable () -> Void = { [weak self] in
            guard let self, self.stateObservers.contains(key) else { return }
            handler(self.appState != .foreground)
        }
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { report() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { report() } }
        }
        return ApplicationStateObservation { [weak self] in self?.stateObservers.remove(key) }
    }

    // MARK: - What the system sees

    /// The app's life-cycle state.
    public var appState: SimulatedAppState { state.withLock { $0.appState } }

    /// Virtual time in seconds since the simulator was created.
    public var now: TimeInterval { state.withLock { $0.now } }

    /// Tells BackgroundTaskKit's engines the call sites and its virtual clock: task ages and linger
    /// timers on a simulator run in its virtual time. A manager waits at most 0.1 s of real time for
    /// a begin in flight on another thread (a call held by ``SimulatorFault/holdOffMainCalls(_:)``,
    /// which only the test, an expiry or a handler's grace releases).
    public var engineHooks: BackgroundTaskBackendHooks? {
        BackgroundTaskBackendHooks(
            callSiteAware: self,
            clock: virtualClock,
            mainActorHop: { [mainThreadPump] work in mainThreadPump.hop(work) },
            inFlightBeginWaitLimit: 2 * CallGate.handlerGrace,
            windDownRealTimeLimit: windDownRealTimeLimit,
            system: ObjectIdentifier(self)
        )
    }

    /// The virtual clock, for the engine's task ages and timers.
    var virtualClock: BackendClock {
        BackendClock(
            now: { [weak self] in self?.now ?? 0 },
            schedule: { [weak self] delay, work in self?.schedule(after: delay, work) },
            isVirtual: true
        )
    }

    /// Every event so far, with its virtual time.
    public var log: [SimulatorLogEntry] { state.withLock { $0.log } }

    /// Every event so far, without times: compare it with an expected list.
    public var events: [SimulatorEvent] { log.map(\.event) }

    /// Every console message so far.
    public var consoleMessages: [ConsoleMessage] {
        events.compactMap { event in
            if case .console(let message) = event { message } else { nil }
        }
    }

    /// Every assertion granted so far, in begin order: when it began, whether its expiration handler
    /// was called, how it ended and how long it was held.
    public var assertionHistory: [SimulatedAssertionHistory] { state.withLock { $0.historyInOrder } }

    /// The tasks of BackgroundTaskKit's that were released while running and ended by the safety net,
    /// in order. Each is a leak the package caught; ``expectNoLeaks()`` fails on them.
    public var safetyNetEnds: [SafetyNetEnd] { state.withLock { $0.safetyNetEnds } }

    /// The assertions held now, in begin order.
    public var outstanding: [SimulatedAssertion] {
        state.withLock { $0.outstandingInOrder.map(\.assertion) }
    }

    /// How the app was killed, or `nil` while it is alive.
    public var termination: SimulatedTermination? { state.withLock { $0.termination } }

    /// The faults in force; change them at any time.
    public var faults: Set<SimulatorFault> {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// The policy numbers in force.
    public var configuration: SimulatorConfiguration { state.withLock { $0.configuration } }
}
