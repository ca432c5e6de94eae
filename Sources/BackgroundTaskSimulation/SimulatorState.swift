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
    var nextIdentifier = 1
    /// Outstanding assertions keyed by raw identifier; identifiers grow, so their order is begin order.
    var outstanding: [Int: SimulatedTask] = [:]
    var log: [SimulatorLogEntry] = []
    var termination: SimulatedTermination?
    /// Handlers of refused begins, called on the main actor when the clock next moves.
    var pendingHandlers: [@MainActor @Sendable () -> Void] = []
    /// The handlers running now, innermost last.
    var handlerContexts: [HandlerContext] = []
    /// App timers on the virtual clock, fired in due order while the app runs.
    var timers: [SimulatedTimer] = []
    var nextTimerSequence = 0

    init(configuration: SimulatorConfiguration, faults: Set<SimulatorFault>) {
        self.configuration = configuration
        self.faults = faults
        self.appState = configuration.initialState
        self.remainingBudget = configuration.backgroundTimeBudget
    }

    // MARK: - Reading

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

    mutating func record(_ event: SimulatorEvent) {
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
            if callsHandler, let handler { pendingHandlers.append(handler) }
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

    mutating func end(_ identifier: BackgroundTaskIdentifier) {
        switch appState {
        case .terminated:
            return
        case .suspended:
            record(.misuse(.callWhileSuspended))
            return
        case .foreground, .background:
            break
        }
        if outstanding.removeValue(forKey: identifier.rawValue) != nil {
            record(.ended(identifier))
        } else {
            record(.console(.cannotEndTask(identifier)))
        }
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
            remainingBudget = configuration.backgroundTimeBudget
            expiredThisStint = false
        }
        appState = target
        record(.appStateChanged(target))
    }

    mutating func terminate(_ code: TerminationCode, reason: TerminationReason, at time: TimeInterval? = nil) {
        guard termination == nil else { return }
        if let time { now = max(now, time) }
        let record = SimulatedTermination(
            code: code,
            reason: reason,
            time: now,
            heldAssertions: outstandingInOrder.map(\.assertion)
        )
        termination = record
        appState = .terminated
        self.record(.terminated(record))
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

    enum Step {
        /// The clock reached the target; nothing else is due.
        case done
        /// Background time ran out: call these handlers, in order, then ``finishExpiry()``.
        case expire([(BackgroundTaskIdentifier, @MainActor @Sendable () -> Void)])
        /// An app timer is due: run its work on the main actor, then ask again.
        case fire(@Sendable () -> Void)
        /// Something was handled; ask again.
        case again
    }

    /// Handles the next thing due no later than `target`, or moves the clock to `target`.
    mutating func step(until target: TimeInterval) -> Step {
        guard termination == nil else { return .done }
        if appState == .background, outstanding.isEmpty, target > now {
            appState = .suspended
            record(.appStateChanged(.suspended))
        }
        let deadline = outstanding.values.compactMap(\.endDeadline).min()
        let expiry: TimeInterval? =
            appState == .background && !outstanding.isEmpty && !expiredThisStint
            ? now + max(remainingBudget, 0) : nil
        let running = appState == .foreground || appState == .background
        let warning = running ? outstanding.values.filter { !$0.warned }.map(warningTime).min() : nil

        let timer = running ? timers.min()?.due : nil
        let due = [deadline, expiry, timer, warning].compactMap { $0 }.map { max($0, now) }.min()
        guard let due, due <= target else {
            moveClock(to: target)
            return .done
        }
        moveClock(to: due)
        if let deadline, deadline <= now {
            terminate(.watchdogTimeout, reason: .expiredTaskNotEnded, at: deadline)
            return .done
        }
        if let expiry, expiry <= now {
            return .expire(startExpiry())
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
        remainingBudget = 0
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
            terminate(.watchdogTimeout, reason: .assertionsHeldAfterExpiration)
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
        let allowed = max(configuration.handlerTimeBudget - context.spent, 0)
        if duration > allowed {
            moveClock(to: now + allowed)
            context.spent += allowed
            terminate(.watchdogTimeout, reason: .expirationHandlersTookTooLong)
        } else {
            moveClock(to: now + duration)
            context.spent += duration
        }
        return true
    }
}
