@_spi(BackgroundTaskKitInternals) import BackgroundTaskDiagnostics
@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// Sees every raw background-task assertion in the process, including those begun by code you cannot
/// change (analytics, image-cache, database and push SDKs), says who began each one, and tells you
/// which ones are still held after their expiration handler returned: the ones that get the app
/// terminated (`0x8badf00d`). Opt-in; optionally it also **rescues** them.
///
/// On iOS, tvOS, visionOS and Mac Catalyst one call at launch installs it (see
/// `Documentation/Tracing.md`):
///
/// ```swift
/// // application(_:didFinishLaunchingWithOptions:)
/// let tracer = BackgroundTaskTracer.install(configuration: .init(rescuesHeldAssertions: true))
/// tracer.addObserver { event in
///     if case .heldAfterExpirationHandlers = event.kind { log.fault("leak by \(event.callSite)") }
/// }
/// ```
///
/// It intercepts `UIApplication`'s `beginBackgroundTask(withName:expirationHandler:)`,
/// `beginBackgroundTask(expirationHandler:)` and `endBackgroundTask(_:)`. Each intercepted call:
///
/// - always calls the original implementation and returns its result unchanged;
/// - passes the expiration handler through wrapped: the system still calls it on the thread it
///   chooses, synchronously, as often as it calls it; the wrapper times it and, after it returns,
///   checks whether the assertion is still held;
/// - records the identifier, the name, the thread, the time and **the caller**: the image (app or
///   framework) and symbol the call came from, found with `dladdr` from the return address;
/// - is counted once, even when the original implementation calls another intercepted method, and
///   not at all when it comes from this package's own backend (whose engine already counts it).
///
/// Everything it knows goes into the same ledger, report and events as `DiagnosingBackend`'s,
/// keyed by caller (`BackgroundTaskCallSite/init(image:symbol:offset:)`) instead of source line,
/// with the tracer's counters (`CallSiteStatistics/heldAfterHandlers`,
/// `CallSiteStatistics/unnamed`, `CallSiteStatistics/doubleEnds`, …).
///
/// ## Rescue
///
/// With ``Configuration/rescuesHeldAssertions``, an assertion still held when its own expiration
/// handler returns is ended by the tracer **inside that same handler call**, and reported as
/// `BackgroundTaskEvent/Kind/rescued`. An assertion is never rescued before its own handler has
/// returned: the check runs in the wrapper, after the handler. One begun with no handler gets the
/// tracer's own handler when rescue is on, which ends it when the system expires it. When its owner
/// ends a rescued assertion later, the tracer does not pass that end on (the system would only log
/// "Can't end BackgroundTask", or, had it reused the identifier, end somebody else's assertion); it
/// is counted as `CallSiteStatistics/endedAfterRescue`.
///
/// ## Without UIKit
///
/// Everything except the method exchange is this class, written over ``TracedApplication``: a stand-in
/// application calls ``interceptBegin(on:named:expirationHandler:callStack:original:)`` and
/// ``interceptEnd(on:_:original:)`` from its own three methods, as the exchanged UIKit methods do.
/// `BackgroundTaskSimulation`'s `SimulatedApplication` is one, driven by the simulator.
public final class BackgroundTaskTracer: BackgroundTaskDiagnosing, CriticalMomentReporting,
    @unchecked Sendable  // mutable state only under the diagnostics' lock
{
    /// What the tracer does besides watching.
    public struct Configuration: Sendable, Equatable {
        /// End an assertion still held after its own expiration handler returned, inside that handler
        /// call. Off by default.
        public var rescuesHeldAssertions: Bool
        /// Frames of each begin's call stack to keep, the caller's first; `0` or `1` keep only the
        /// caller. Costly (a backtrace per begin); clamped to 0...64. Default 0.
        public var backtraceDepth: Int
        /// As `DiagnosingBackend/Configuration/staleTaskAge`. Default 30 s.
        public var staleTaskAge: TimeInterval?
        /// As `DiagnosingBackend/Configuration/assertionLimit`. Default 1000.
        public var assertionLimit: Int?
        /// How long the handlers of one expiry wait, together, for calls other threads have in flight
        /// (``BackgroundTaskTracer/inFlightWaitLimit``). Package-internal: tests that race real threads on a
        /// loaded machine (the thread sanitizer slows every thread) raise it, so that they test the order of
        /// events and not the machine's scheduling.
        package var inFlightWaitLimit: TimeInterval = BackgroundTaskTracer.inFlightWaitLimit

        /// A configuration with the values given and the defaults for the rest.
        ///
        /// - Parameters:
        ///   - rescuesHeldAssertions: See `rescuesHeldAssertions`.
        ///   - backtraceDepth: See `backtraceDepth`.
        ///   - staleTaskAge: See `staleTaskAge`.
        ///   - assertionLimit: See `assertionLimit`.
        public init(
            rescuesHeldAssertions: Bool = false,
            backtraceDepth: Int = 0,
            staleTaskAge: TimeInterval? = 30,
            assertionLimit: Int? = 1000
        ) {
            self.rescuesHeldAssertions = rescuesHeldAssertions
            self.backtraceDepth = min(max(backtraceDepth, 0), 64)
            self.staleTaskAge = staleTaskAge
            self.assertionLimit = assertionLimit
        }
    }

    /// The configuration in force.
    public let configuration: Configuration
    /// The ledger, its lock and clock, the report and the observers (as a diagnosing backend's).
    public let diagnostics: BackgroundTaskDiagnostics
    private var clock: BackendClock { diagnostics.clock }
    private var lock: EngineLock { diagnostics.lock }
    private let resolver = CallerResolver()
    // Unchecked here and on the entries: the diagnostics' lock makes every access exclusive, and the run-time checks
    // cost 374 instructions a traced begin+end (16,634 against 16,260: callgrind, 2026-11-25).
    /// The assertions held, by raw identifier.
    @exclusivity(unchecked) private var held = IdentifierTable<TracedAssertionEntry>()
    /// Rescued assertions whose owner has not ended them yet, by raw identifier.
    @exclusivity(unchecked) private var rescued: [Int: TracedAssertionEntry] = [:]
    /// The last assertions ended, to tell a double end from an end of a foreign identifier.
    @exclusivity(unchecked) private var recentlyEnded = RecentEnds()
    /// Wrapper calls running now, of any assertion.
    @exclusivity(unchecked) private var handlersRunning = 0
    /// The deadline the handlers of the current expiry share for their waits; `nil` between expiries.
    @exclusivity(unchecked) private var expiryWaitDeadline: Date?
    /// Told synchronously, outside the lock, of the moments a flight recorder must write at once.
    package let criticalMoments = CriticalMoments()
    /// Held assertions begun without a handler (with rescue off): checked when a handler returns.
    @exclusivity(unchecked) private var heldWithoutHandler = 0

    /// Creates a tracer. On Apple platforms use `install(configuration:)`; create one directly to
    /// trace a stand-in application.
    ///
    /// - Parameters:
    ///   - configuration: What to do besides watching.
    ///   - backend: A backend whose clock the tracer reads (the simulator's virtual time); `nil`: the
    ///     system's monotonic clock.
    public init(configuration: Configuration = Configuration(), clockOf backend: (any BackgroundTaskBackend)? = nil) {
        self.configuration = configuration
        self.diagnostics = BackgroundTaskDiagnostics(
            configuration: .init(
                staleTaskAge: configuration.staleTaskAge, assertionLimit: configuration.assertionLimit),
            clock: backend.map(BackendClock.of) ?? .system)
    }

    // MARK: - The interception seam

    /// Traces one begin: call it from the intercepted begin method, with that method's arguments, the
    /// call stack it captured first thing, and its original implementation.
    ///
    /// - Parameters:
    ///   - application: The application whose method was called.
    ///   - name: The task name passed in (`nil` for `beginBackgroundTask(expirationHandler:)`).
    ///   - expirationHandler: The handler passed in.
    ///   - callStack: ``TracedCallStack/capture(frames:skipping:)``, called first in the intercepting method.
    ///   - original: Calls the original implementation with the name and the handler given to it.
    /// - Returns: What `original` returned.
    public func interceptBegin<Application: TracedApplication>(
        on application: Application,
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?,
        callStack: TracedCallStack,
        original: (String?, (@MainActor @Sendable () -> Void)?) -> Application.TaskIdentifier
    ) -> Application.TaskIdentifier {
        guard TracerThreadFlags.current == 0 else { return original(name, expirationHandler) }
        let caller = resolver.callSite(for: callStack.callerAddress)
        let rescues = configuration.rescuesHeldAssertions
        let now = clock.now()
        let entry = TracedAssertionEntry(
            name: name, callSite: caller, beganAt: now, hasHandler: expirationHandler != nil || rescues,
            application: application,
            backtrace: configuration.backtraceDepth > 1
                ? Array(callStack.addresses.prefix(configuration.backtraceDepth)) : []
        )
        diagnostics.began(entry, at: now)
        let wrapped: (@MainActor @Sendable () -> Void)? =
            if expirationHandler != nil || rescues {
                { @MainActor @Sendable [self] in self.runExpirationHandler(expirationHandler, of: entry) }
            } else {
                nil
            }
        let identifier = TracerThreadFlags.with(TracerThreadFlags.insideInterception) { original(name, wrapped) }
        let (lateRescue, wake) = withLock(at: nil) { ledger, tasks -> (Bool, (CallWaiters, Int)?) in
            entry.beginInFlight = false
            let wake = entry.takeCallWaiters().map { ($0, $0.count) }
            guard identifier != .invalid else {
                ledger.noteFinished(entry, as: .notGranted)
                tasks.remove(entry)
                return (false, wake)
            }
            entry.rawIdentifier = identifier.rawValue
            guard entry.recorderMarks.isRunning else { return (false, wake) }
            held.insert(entry, for: identifier.rawValue)
            if !entry.hasHandler { heldWithoutHandler += 1 }
            ledger.noteGranted(entry, announce: !entry.recorderMarks.expiryReported)
            // The system ran the handler before the begin returned it, on this thread or past the wait
            // for this begin: nobody could end it inside the handler.
            return (entry.recorderMarks.expiryHandlerReturned && takeHeldAfterHandler(entry, ledger, in: &tasks), wake)
        }
        if let (waiters, count) = wake { waiters.wake(count) }
        if lateRescue {
            criticalMoments.report(.heldAfterHandlers)
            application.endBypassingTracer(rawIdentifier: identifier.rawValue)
        }
        return identifier
    }

    /// Traces one end: call it from the intercepted end method.
    ///
    /// - Parameters:
    ///   - application: The application whose method was called.
    ///   - identifier: The identifier passed in.
    ///   - original: Calls the original implementation. Not called for the first end of an assertion
    ///     the tracer rescued (see the type's discussion); called in every other case.
    public func interceptEnd<Application: TracedApplication>(
        on application: Application,
        _ identifier: Application.TaskIdentifier,
        original: (Application.TaskIdentifier) -> Void
    ) {
        guard TracerThreadFlags.current == 0, identifier != .invalid else { return original(identifier) }
        let raw = identifier.rawValue
        let (passOn, ending, lastEnded) = withLock(at: clock.now()) {
            ledger, tasks -> (Bool, TracedAssertionEntry?, Bool) in
            ledger.checkStale(in: &tasks)
            if let entry = held.remove(raw) {
                if !entry.hasHandler { heldWithoutHandler -= 1 }
                ledger.noteFinished(entry, as: entry.recorderMarks.expiryReported ? .expired : .ended)
                tasks.remove(entry)
                recentlyEnded.add(entry)
                entry.endInFlight = true
                return (true, entry, held.count == 0)
            }
            if let entry = rescued.removeValue(forKey: raw) {
                ledger.note(.endedAfterRescue, for: entry)
                return (false, nil, false)
            }
            if let entry = recentlyEnded.entry(for: raw) {
                ledger.note(.doubleEnd, for: entry)
            }
            return (true, nil, false)
        }
        guard passOn else { return }
        // Before the system hears of it: once nothing is held, the app may be suspended at once.
        if lastEnded { criticalMoments.report(.lastTaskEnded) }
        TracerThreadFlags.with(TracerThreadFlags.insideInterception) { original(identifier) }
        guard let ending else { return }
        let wake = withLock(at: nil) { _, _ -> (CallWaiters, Int)? in
            ending.endInFlight = false
            return ending.takeCallWaiters().map { ($0, $0.count) }
        }
        if let (waiters, count) = wake { waiters.wake(count) }
    }

    // MARK: - What it knows

    /// The traced assertions still held, in begin order, with everything the tracer knows.
    public var heldAssertions: [TracedAssertion] {
        typealias Held = (entry: TracedAssertionEntry, state: TracedAssertion.HandlerState)
        let (now, held) = withLock(at: clock.now()) { ledger, tasks -> (TimeInterval, [Held]) in
            var held: [Held] = []
            var entry = tasks.head
            while let current = entry {
                if current.recorderMarks.isRunning, current.recorderMarks.isGranted,
                    let traced = current as? TracedAssertionEntry
                {
                    held.append((traced, traced.handlerState))
                }
                entry = current.next
            }
            return (ledger.operationTime, held)
        }
        return held.map { entry, state in
            TracedAssertion(
                taskNumber: entry.number, identifier: entry.rawIdentifier, name: entry.name, caller: entry.callSite,
                beganOnMainThread: entry.beganOnMainThread, thread: entry.threadID, age: now - entry.beganAt,
                handlerState: state,
                backtrace: entry.backtrace.map { resolver.callSite(for: $0).description }
            )
        }
    }

    /// The held assertions whose expiration handler has returned (or that have none, after another
    /// handler of the expiry returned): the ones the system terminates the app for.
    public var heldAfterHandlers: [TracedAssertion] {
        let numbers = withLock(at: nil) { ledger, tasks -> Set<UInt64> in
            var numbers: Set<UInt64> = []
            var entry = tasks.head
            while let current = entry {
                if current.recorderMarks.isRunning, let traced = current as? TracedAssertionEntry,
                    traced.heldAfterHandlers
                {
                    numbers.insert(traced.number)
                }
                entry = current.next
            }
            return numbers
        }
        return heldAssertions.filter { numbers.contains($0.taskNumber) }
    }

    /// The traced assertions held, oldest first, for a flight recorder's snapshot
    /// (`BackgroundTaskFieldTelemetry`).
    package func heldTasks(limit: Int, maximumNameLength: Int) -> (tasks: [HeldTaskSummary], omitted: Int) {
        diagnostics.heldTasks(limit: limit, maximumNameLength: maximumNameLength)
    }

    // MARK: - Private

    /// The wrapper the system calls instead of the owner's handler: times it, and afterwards reports
    /// (and with rescue, ends) the assertion if it is still held. Runs on whatever thread the system
    /// chose; the owner's handler runs there, synchronously, every time the wrapper is called, with the
    /// tracer's per-thread flags cleared (its calls are the owner's, and are traced).
    private func runExpirationHandler(_ handler: (@MainActor @Sendable () -> Void)?, of entry: TracedAssertionEntry) {
        let first = withLock(at: clock.now()) { ledger, _ -> Bool in
            handlersRunning += 1
            entry.handlerCallsRunning += 1
            guard !entry.handlerEntered else { return false }
            entry.handlerEntered = true
            if ledger.noteExpiring(entry) { ledger.noteExpirationHandlerEntered(entry) }
            return true
        }
        let start = clock.now()
        if let handler { TracerThreadFlags.cleared { MainActorContext.callOnAnyThread(handler) } }
        var decided: (rescue: Bool, critical: Bool)?
        var end = start
        while decided == nil {
            waitForCallsInFlight(of: entry)
            afterWaitingForCallsInFlight.withLock { $0.run }?()
            end = clock.now()
            decided = decide(entry, first: first, start: start, end: end)
        }
        let (rescue, critical) = decided ?? (false, false)
        if critical { criticalMoments.report(.heldAfterHandlers) }
        if rescue { entry.application.endBypassingTracer(rawIdentifier: entry.rawIdentifier) }
    }

    /// Under the lock, once the handler's own code returned: whether to rescue its assertion, and whether that is a
    /// critical moment; `nil` when an end of it started on another thread since the last wait (it left the held
    /// assertions but has not reached the system): wait for that end too, while the expiry's deadline allows.
    private func decide(
        _ entry: TracedAssertionEntry, first: Bool, start: TimeInterval, end: TimeInterval
    ) -> (rescue: Bool, critical: Bool)? {
        withLock(at: end) { ledger, tasks -> (rescue: Bool, critical: Bool)? in
            if entry.endInFlight, expiryWaitDeadline.map({ $0.timeIntervalSinceNow > 0 }) ?? true { return nil }
            handlersRunning -= 1
            entry.handlerCallsRunning -= 1
            if handlersRunning == 0 { expiryWaitDeadline = nil }
            if first {
                entry.recorderMarks.expiryHandlerReturned = true
                if entry.recorderMarks.expiryReported {
                    ledger.noteExpirationHandlerExited(entry, duration: end - start)
                }
            }
            // Only once no call of its handler runs: a second, overlapping call may still end it.
            // Not granted: a refused begin's handler, or one the system ran inside the begin (which
            // checks when it returns). Nothing here says an expiry is over.
            guard entry.handlerCallsRunning == 0, entry.recorderMarks.isGranted else { return (false, false) }
            let handlerless = handlersRunning == 0 && noteHandlerlessAssertionsHeld(ledger, in: tasks)
            guard held[entry.rawIdentifier] === entry else { return (false, handlerless) }
            return (takeHeldAfterHandler(entry, ledger, in: &tasks), true)
        }
    }

    /// What runs on a handler's thread after each of its waits for calls in flight, before the tracer decides whether
    /// to rescue: nothing in an app; tests place another thread's end exactly there.
    package struct HandlerHook: Sendable {
        package var run: (@Sendable () -> Void)?
        package init() {}
    }
    package let afterWaitingForCallsInFlight = Locked(HandlerHook())

    /// Rescued assertions remembered until their owner ends them (so that end is not passed on). An
    /// end of one forgotten beyond this is passed on, and iOS logs "Can't end BackgroundTask".
    static let keptRescues = 256

    /// How long the handlers of one expiry wait, together, for begins and ends that other threads have
    /// made and that have not returned from the system yet (see ``waitForCallsInFlight(of:)``).
    static let inFlightWaitLimit: TimeInterval = 0.5

    /// After the owner's handler returned: while its assertion's begin (made on another thread) has not
    /// returned its identifier, or its end (made on another thread) has not reached the system, waits
    /// for it, so that the end lands, or the rescue can be made, inside this handler call. All the
    /// handlers of one expiry share one deadline, `inFlightWaitLimit` after the first wait. A begin
    /// made on this very thread is not waited for (it returns only after this handler).
    private func waitForCallsInFlight(of entry: TracedAssertionEntry) {
        let sameThread = entry.threadID == pthreadNumber()
        while true {
            // Registered under the lock, so that the call cannot land between the look and the wait.
            let waiting = lock.withLock { () -> (CallWaiters, Date)? in
                guard entry.endInFlight || (entry.beginInFlight && !sameThread) else { return nil }
                let deadline = expiryWaitDeadline ?? Date(timeIntervalSinceNow: configuration.inFlightWaitLimit)
                expiryWaitDeadline = deadline
                let waiters = entry.callWaiters ?? CallWaiters()
                waiters.count += 1
                entry.callWaiters = waiters
                return (waiters, deadline)
            }
            // Landed, or out of time (a late wake-up then goes to waiters nobody holds any more).
            guard let (waiters, deadline) = waiting, deadline.timeIntervalSinceNow > 0,
                waiters.wait(timeout: deadline.timeIntervalSinceNow)
            else { return }
        }
    }

    /// Under the lock, for a held assertion whose handler returned: reports it once, and with rescue
    /// takes it out of the held ones; `true` when the caller must end it (after unlocking).
    private func takeHeldAfterHandler(_ entry: TracedAssertionEntry, _ ledger: TaskLedger, in tasks: inout TaskList)
        -> Bool
    {
        if !entry.heldAfterHandlers {
            entry.heldAfterHandlers = true
            ledger.note(.heldAfterHandlers, for: entry)
        }
        guard configuration.rescuesHeldAssertions, held.remove(entry.rawIdentifier) != nil else { return false }
        ledger.noteFinished(entry, as: .rescued)
        tasks.remove(entry)
        // Owners that never end a rescued assertion would grow this forever: forget one (any) first.
        if rescued.count >= Self.keptRescues { rescued.remove(at: rescued.startIndex) }
        rescued[entry.rawIdentifier] = entry
        return true
    }

    /// Under the lock, once the last running handler of an expiry returned: assertions begun without a
    /// handler are not told of the expiry, and are reported held after handlers now. `true` when one
    /// was.
    private func noteHandlerlessAssertionsHeld(_ ledger: TaskLedger, in tasks: TaskList) -> Bool {
        guard heldWithoutHandler > 0 else { return false }
        var noted = false
        var entry = tasks.head
        while let current = entry {
            if current.recorderMarks.isRunning, let traced = current as? TracedAssertionEntry, !traced.hasHandler,
                !traced.heldAfterHandlers, held[traced.rawIdentifier] === traced
            {
                traced.heldAfterHandlers = true
                ledger.note(.heldAfterHandlers, for: traced)
                noted = true
            }
            entry = current.next
        }
        return noted
    }

    /// Runs `body` under the lock with the list of running assertions, at time `now` (when given).
    private func withLock<Result>(at now: TimeInterval?, _ body: (TaskLedger, inout TaskList) -> Result) -> Result {
        diagnostics.withLedger(at: now, body)
    }
}
