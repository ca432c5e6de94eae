import BackgroundTaskKit
import Foundation

/// Everything a ``BackgroundTaskSimulator`` knows, behind its lock.
///
/// Every mutating method only computes: it never calls a handler. Where a handler is due it returns
/// it, and the simulator calls it after the lock is released, so handlers may call back in.
struct SimulatorState {
    let configuration: SimulatorConfiguration
    var faults: Set<SimulatorFault>
    var appState: SimulatedAppState
    var now: TimeInterval = 0
    var remainingBudget: TimeInterval
    var expiredThisStint = false
    /// The watchdog has acted on this stint's budget running out (terminated the app, or, under the
    /// debugger, let it be): it does not act twice.
    var budgetEndHandled = false
    var nextIdentifier = 1
    /// Outstanding assertions keyed by raw identifier; identifiers grow, so their order is begin order.
    var outstanding: [Int: SimulatedTask] = [:]
    var log: [SimulatorLogEntry] = []
    /// Begins recorded so far, granted or refused: counted as they are logged, so that waiting for them costs the same
    /// however long the log grows.
    var beginsRecorded = 0
    /// The `success` of each completion of a launched task recorded so far, by task identifier, in order (counted as
    /// logged, like ``beginsRecorded``).
    var completionsRecorded: [String: [Bool]] = [:]
    /// Every granted assertion's life, by raw identifier (identifiers grow: begin order).
    var history: [Int: SimulatedAssertionHistory] = [:]
    /// Tasks the package's safety net ended, in order.
    var safetyNetEnds: [SafetyNetEnd] = []
    var termination: SimulatedTermination?
    /// Handlers of refused begins (no identifier), called on the main actor when the clock next moves.
    var pendingHandlers: [(BackgroundTaskIdentifier?, @MainActor @Sendable () -> Void)] = []
    /// The handlers running now, innermost last.
    var handlerContexts: [HandlerContext] = []
    /// The simulated `BGTaskScheduler`.
    var scheduler = SimulatedScheduler()
    /// File locks the app holds now (``BackgroundTaskSimulator/takeFileLock(_:)``), by number: names in take order.
    var fileLocks: [Int: String] = [:]
    var nextFileLock = 1
    /// App timers on the virtual clock, fired in due order while the app runs.
    var timers: [SimulatedTimer] = []
    var nextTimerSequence = 0

    init(configuration: SimulatorConfiguration, faults: Set<SimulatorFault>) {
        self.configuration = configuration
        self.faults = faults
        self.appState = configuration.initialState
        self.remainingBudget = Self.seconds(configuration.backgroundTimeBudget)
    }

    /// A configured time: NaN and negative values count as 0.
    static func seconds(_ value: TimeInterval) -> TimeInterval {
        value > 0 ? value : 0
    }

    /// How long before the budget is gone the handlers are called.
    var expirationLead: TimeInterval { Self.seconds(configuration.expirationLead) }

    // MARK: - Reading

    var historyInOrder: [SimulatedAssertionHistory] {
        history.keys.sorted().compactMap { history[$0] }
    }

    var outstandingInOrder: [SimulatedTask] {
        outstanding.values.sorted { $0.identifier.rawValue < $1.identifier.rawValue }
    }

    var backgroundTimeRemaining: TimeInterval? {
        switch appState {
        case .foreground: nil
        case .background: max(remainingBudget, 0)
        case .suspended, .terminated: 0
        }
    }

    /// A handler of `identifier` was entered: its history keeps the first time.
    mutating func noteHandlerCalled(_ identifier: BackgroundTaskIdentifier?) {
        guard let identifier, history[identifier.rawValue]?.expirationHandlerCalledAt == nil else { return }
        history[identifier.rawValue]?.expirationHandlerCalledAt = now
    }

    mutating func record(_ event: SimulatorEvent) {
        switch event {
        case .began, .notGranted: beginsRecorded += 1
        case .scheduledTaskCompleted(let identifier, let success):
            completionsRecorded[identifier, default: []].append(success)
        default: break
        }
        log.append(SimulatorLogEntry(time: now, event: event))
    }

    // MARK: - Begin and end

    enum BeginOutcome {
        case granted(BackgroundTaskIdentifier, handlerToCallNow: (@MainActor @Sendable () -> Void)?)
        case refused
    }

    mutating func begin(name: String?, handler: (@MainActor @Sendable () -> Void)?) -> BeginOutcome {
        switch appState {
        case .terminated:
            return .refused
        case .suspended:
            record(.misuse(.callWhileSuspended))
            return .refused
        case .foreground, .background:
            break
        }
        if let callsHandler = refusalFault {
            record(.notGranted(name: name))
            if callsHandler, let handler { pendingHandlers.append((nil, handler)) }
            return .refused
        }
        if appState == .background, expiredThisStint, !faults.contains(.handlerBeforeBeginReturns) {
            // Begun after this stint's handlers were called: the system has no time left to lend. It refuses, and no
            // handler ever comes (Apple: a begin shortly before the app is due to be suspended may not be granted
            // before it is; wire-ios PR #4935: tasks begun then never had their handlers called, and the app froze
            // holding a file lock). With `.handlerBeforeBeginReturns` the test asked for the other answer iOS can
            // give: granted, with the handler called at once.
            record(.notGranted(name: name))
            return .refused
        }
        let identifier = BackgroundTaskIdentifier(rawValue: nextIdentifier)
        nextIdentifier += 1
        var task = SimulatedTask(identifier: identifier, name: name, createdAt: now, handler: handler)
        if faults.contains(.noHandlerWhenLittleTimeLeft), appState == .background,
            remainingBudget < configuration.minimumTimeForExpirationHandler
        {
            task.handler = nil
        }
        var callNow: (@MainActor @Sendable () -> Void)?
        if faults.contains(.handlerBeforeBeginReturns), let handler = task.handler {
            task.handlerCalled = true
            task.endDeadline = now + configuration.handlerTimeBudget
            callNow = handler
        }
        outstanding[identifier.rawValue] = task
        history[identifier.rawValue] = SimulatedAssertionHistory(assertion: task.assertion, ending: .stillHeld)
        history[identifier.rawValue]?.hasExpirationHandler = task.handler != nil
        record(.began(identifier, name: name))
        if outstanding.count > configuration.assertionLimit {
            terminate(.tooManyAssertions, reason: .assertionLimitExceeded)
            return .refused
        }
        return .granted(identifier, handlerToCallNow: callNow)
    }

    /// `callingHandler` of an injected refusal, or `nil` when begins are granted.
    private var refusalFault: Bool? {
        if faults.contains(.notGranted(callingHandler: true)) { return true }
        if faults.contains(.notGranted(callingHandler: false)) { return false }
        return nil
    }

    mutating func end(_ identifier: BackgroundTaskIdentifier, bySafetyNet: Bool = false) {
        switch appState {
        case .terminated:
            return
        case .suspended:
            record(.misuse(.callWhileSuspended))
            return
        case .foreground, .background:
            break
        }
        if let task = outstanding.removeValue(forKey: identifier.rawValue) {
            history[identifier.rawValue]?.ending = bySafetyNet ? .endedBySafetyNet(at: now) : .ended(at: now)
            if bySafetyNet, let callSite = task.callSite {
                noteSafetyNetEnd(SafetyNetEnd(name: task.name, callSite: callSite, time: now, identifier: identifier))
            }
            record(.ended(identifier))
        } else {
            record(.console(.cannotEndTask(identifier)))
        }
    }

    /// Notes a safety-net end once: a manager's task dropped as the last user of the shared assertion (noted without
    /// an identifier) and that assertion, ended for it at the same moment, are one leak.
    mutating func noteSafetyNetEnd(_ end: SafetyNetEnd) {
        if let last = safetyNetEnds.indices.last, safetyNetEnds[last].callSite == end.callSite,
            safetyNetEnds[last].time == end.time, (safetyNetEnds[last].identifier == nil) != (end.identifier == nil)
        {
            safetyNetEnds[last].identifier = safetyNetEnds[last].identifier ?? end.identifier
            return
        }
        // A coalescing manager's shared assertion, ended after its linger for the task the safety net ended earlier:
        // the same leak, now with the assertion that held it.
        if end.identifier != nil,
            let earlier = safetyNetEnds.lastIndex(where: {
                $0.identifier == nil && $0.callSite == end.callSite && $0.time <= end.time
            })
        {
            safetyNetEnds[earlier].identifier = end.identifier
            return
        }
        safetyNetEnds.append(end)
    }

    // MARK: - App state

    mutating func transition(to target: SimulatedAppState) {
        let allowed: Bool =
            switch (appState, target) {
            case (.foreground, .background), (.background, .foreground), (.suspended, .foreground),
                (.suspended, .background):
                true
            default:
                false
            }
        guard allowed else {
            record(.misuse(.invalidTransition(from: appState, to: target)))
            return
        }
        if target == .background {
            remainingBudget = Self.seconds(configuration.backgroundTimeBudget)
            expiredThisStint = false
            budgetEndHandled = false
        }
        appState = target
        record(.appStateChanged(target))
    }

    /// Terminates the app, unless the debugger is attached and `code` is the watchdog's: then the
    /// termination it would have been is logged and the app goes on. Returns whether it terminated.
    @discardableResult
    mutating func terminate(_ code: TerminationCode, reason: TerminationReason, at time: TimeInterval? = nil) -> Bool {
        guard termination == nil else { return true }
        if let time { now = max(now, time) }
        let record = SimulatedTermination(
            code: code,
            reason: reason,
            time: now,
            heldAssertions: outstandingInOrder.map(\.assertion)
        )
        if configuration.debuggerAttached, code == .watchdogTimeout {
            self.record(.terminationPreventedByDebugger(record))
            return false
        }
        termination = record
        appState = .terminated
        for task in outstanding.values { history[task.identifier.rawValue]?.ending = .heldAtTermination(at: now) }
        self.record(.terminated(record))
        return true
    }

    // MARK: - The clock

    /// Moves virtual time forward, charging the background budget when it runs.
    mutating func moveClock(to time: TimeInterval) {
        guard time > now else { return }
        if appState == .background, !outstanding.isEmpty {
            remainingBudget -= time - now
        }
        now = time
    }

    /// When the system calls the expiration handlers: in the background, holding an assertion, once a stay.
    var expiryDue: TimeInterval? {
        appState == .background && !outstanding.isEmpty && !expiredThisStint
            ? now + max(remainingBudget - expirationLead, 0) : nil
    }

    /// After the handlers, when the budget is gone: assertions still held then get the app killed.
    var budgetEndDue: TimeInterval? {
        appState == .background && !outstanding.isEmpty && expiredThisStint && !budgetEndHandled
            ? now + max(remainingBudget, 0) : nil
    }

    enum Step {
        /// The clock reached the target; nothing else is due.
        case done
        /// Background time ran out: call these handlers, in order, then ``finishExpiry()``.
        case expire([(BackgroundTaskIdentifier, @MainActor @Sendable () -> Void)])
        /// An app timer is due: run its work on the main actor, then ask again.
        case fire(@Sendable () -> Void)
        /// Something was handled; ask again.
        case again
        /// The watchdog is about to look (a handler's deadline, the end of the budget): let the calls
        /// held off the main thread land first, then ask again.
        case landHeldCalls
        /// The app is about to be suspended while calls released from the gate are still on their
        /// way: let them land first (a device's thread makes them in microseconds), then ask again.
        case landReleasedCalls
        /// A launched scheduled task expired: call its handler (off the main thread), then ask again.
        case expireScheduledTask(@Sendable () -> Void)
        /// A queued continued-processing job starts: call its launch handler (off the main thread), then ask again.
        case launchContinuedProcessing(ContinuedLaunchDue)
    }

    /// Handles the next thing due no later than `target`, or moves the clock to `target`. With
    /// `heldCalls`, returns ``Step/landHeldCalls`` at a moment the watchdog checks, before checking;
    /// with `releasedCalls`, returns ``Step/landReleasedCalls`` before suspending the app.
    mutating func step(until target: TimeInterval, heldCalls: Bool = false, releasedCalls: Bool = false) -> Step {
        guard termination == nil else { return .done }
        if appState == .background, outstanding.isEmpty, scheduler.running.isEmpty, target > now,
            !configuration.debuggerAttached
        {
            if releasedCalls { return .landReleasedCalls }
            suspend()
            guard termination == nil else { return .done }
        }
        let deadline = outstanding.values.compactMap(\.endDeadline).min()
        let expiry = expiryDue
        let budgetEnd = budgetEndDue
        let running = appState == .foreground || appState == .background
        let warning = running ? outstanding.values.filter { !$0.warned }.map(warningTime).min() : nil

        let timer = running ? timers.min()?.due : nil
        let scheduled = running ? [scheduler.nextDue, continuedLaunchDue].compactMap { $0 }.min() : nil
        let due = [deadline, expiry, budgetEnd, timer, warning, scheduled].compactMap { $0 }.map { max($0, now) }.min()
        guard let due, due <= target else {
            moveClock(to: target)
            return .done
        }
        moveClock(to: due)
        let watchdogChecks = (deadline.map { $0 <= now } ?? false) || (budgetEnd.map { $0 <= now } ?? false)
        if heldCalls, watchdogChecks { return .landHeldCalls }
        if let deadline, deadline <= now {
            for task in outstandingInOrder where task.endDeadline.map({ $0 <= now }) ?? false {
                outstanding[task.identifier.rawValue]?.endDeadline = nil  // the watchdog acts once
            }
            terminate(.watchdogTimeout, reason: .expiredTaskNotEnded, at: deadline)
            return termination == nil ? .again : .done
        }
        if let expiry, expiry <= now {
            return .expire(startExpiry())
        }
        if let step = stepScheduler() { return step }
        if let budgetEnd, budgetEnd <= now {
            budgetEndHandled = true
            terminate(.watchdogTimeout, reason: .assertionsHeldAfterExpiration)
            return termination == nil ? .again : .done
        }
        if let timer, timer <= now, let first = timers.min(), let index = timers.firstIndex(of: first) {
            timers.remove(at: index)
            return .fire(first.work)
        }
        for task in outstandingInOrder where !task.warned && warningTime(task) <= now {
            outstanding[task.identifier.rawValue]?.warned = true
            record(
                .console(
                    .taskCreatedTooLongAgo(
                        task.identifier,
                        name: task.name,
                        warningAge: configuration.longRunningTaskWarningAge
                    )
                )
            )
        }
        return .again
    }

    /// When the app's next timer is due, if it may still end a held assertion before anything else the system does:
    /// it comes within `limit` seconds, and before any expiry, watchdog deadline or scheduled launch (settling never
    /// moves the app into one of those). `nil`: nothing held, the app dead or suspended, or no such timer.
    func settlingTarget(within limit: TimeInterval) -> TimeInterval? {
        guard termination == nil, !outstanding.isEmpty, appState == .foreground || appState == .background,
            let timer = timers.min()?.due, timer <= now + limit
        else { return nil }
        let deadline = outstanding.values.compactMap(\.endDeadline).min()
        let system = [expiryDue, budgetEndDue, deadline, scheduler.nextDue, continuedLaunchDue].compactMap { $0 }.min()
        if let system, system <= max(timer, now) { return nil }
        return max(timer, now)
    }

    private func warningTime(_ task: SimulatedTask) -> TimeInterval {
        task.createdAt + configuration.longRunningTaskWarningAge
    }

    // MARK: - Timers

    mutating func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        timers.append(SimulatedTimer(due: now + max(delay, 0), sequence: nextTimerSequence, work: work))
        nextTimerSequence += 1
    }

    // MARK: - Expiry

    private mutating func startExpiry() -> [(BackgroundTaskIdentifier, @MainActor @Sendable () -> Void)] {
        expiredThisStint = true
        record(.backgroundTimeExpired)
        handlerContexts.append(HandlerContext())
        var calls: [(BackgroundTaskIdentifier, @MainActor @Sendable () -> Void)] = []
        for task in outstandingInOrder where !task.handlerCalled {
            guard let handler = task.handler else { continue }
            outstanding[task.identifier.rawValue]?.handlerCalled = true
            calls.append((task.identifier, handler))
        }
        return calls
    }

    /// After the last handler of an expiry: terminate if anything is still held, else suspend.
    mutating func finishExpiry() {
        if !handlerContexts.isEmpty { handlerContexts.removeLast() }
        guard termination == nil else { return }
        let held = outstandingInOrder
        guard held.isEmpty else {
            for task in held {
                record(
                    .console(
                        .taskNotEndedAfterExpirationHandlers(
                            task.identifier,
                            name: task.name,
                            createdAt: task.createdAt,
                            elapsed: now - task.createdAt
                        )
                    )
                )
            }
            // With no lead left the budget is gone now; otherwise the watchdog acts when it is
            // (``step(until:)``), unless the assertions are ended by then.
            if remainingBudget <= 0 {
                budgetEndHandled = true
                terminate(.watchdogTimeout, reason: .assertionsHeldAfterExpiration)
            }
            return
        }
        guard !configuration.debuggerAttached else { return }
        suspend()
    }

    /// The system suspends the app; one that holds a file lock is terminated with `0xdead10cc` instead.
    mutating func suspend() {
        guard fileLocks.isEmpty else {
            terminate(.suspendedWithLockedFile, reason: .suspendedHoldingFileLock)
            return
        }
        appState = .suspended
        record(.appStateChanged(.suspended))
    }

    func isOutstanding(_ identifier: BackgroundTaskIdentifier) -> Bool {
        outstanding[identifier.rawValue] != nil
    }

    // MARK: - Time spent inside handlers

    /// Charges `duration` to the running handler; `false` when no handler is running.
    ///
    /// When the handlers' total passes the handler time budget, the clock stops at that instant and
    /// the watchdog terminates the app there.
    mutating func spendInHandler(_ duration: TimeInterval) -> Bool {
        guard var context = handlerContexts.popLast() else { return false }
        defer { handlerContexts.append(context) }
        guard termination == nil else { return true }
        let budget = wholeNanoseconds(configuration.handlerTimeBudget)
        let allowed = max(budget - context.spentNanoseconds, 0)
        let requested = wholeNanoseconds(duration)
        if requested > allowed, !context.overrunReported {
            moveClock(to: now + Double(allowed) / 1e9)
            context.spentNanoseconds += allowed
            context.overrunReported = true
            if !terminate(.watchdogTimeout, reason: .expirationHandlersTookTooLong) {
                moveClock(to: now + Double(requested - allowed) / 1e9)  // the debugger let it run on
            }
        } else {
            moveClock(to: now + duration)
            context.spentNanoseconds += requested
        }
        return true
    }
}
