import BackgroundTaskKit
import BackgroundTaskTimeline
import Foundation

extension BackgroundTaskSimulator {
    /// The run so far as a timeline: one lane per assertion, launched scheduled task and file lock, the app's
    /// state, each stay in the background with its budget, the system's moments and the termination.
    ///
    /// ```swift
    /// try simulator.timeline(title: "Export").svg().write(toFile: "export.svg", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// A failing `expect…` helper carries the same picture (`SimulatorExpectationFailure.timeline`), and the test
    /// kit attaches it to the failing test.
    ///
    /// - Parameter title: What the picture shows.
    /// - Returns: The timeline, from 0 to the simulator's current time.
    public func timeline(title: String = "Simulated run") -> BackgroundTaskTimeline {
        run(title: title).timeline
    }

    /// The log, the assertions and their timeline, from one reading of the state, so that they agree.
    func run(title: String) -> (
        log: [SimulatorLogEntry], assertions: [SimulatedAssertionHistory], timeline: BackgroundTaskTimeline
    ) {
        let (log, history, configuration, now) = state.withLock {
            ($0.log, $0.historyInOrder, $0.configuration, $0.now)
        }
        let timeline = BackgroundTaskTimeline(
            simulatorLog: log, assertions: history, configuration: configuration, end: now, title: title)
        return (log, history, timeline)
    }
}

extension BackgroundTaskTimeline {
    /// The timeline of a simulator's log.
    ///
    /// - Parameters:
    ///   - log: The log, in time order (`BackgroundTaskSimulator.log`).
    ///   - assertions: The assertions' histories (`BackgroundTaskSimulator.assertionHistory`): they add call sites
    ///     and tell a safety net's end from an owner's. Without them lanes have no call site.
    ///   - configuration: The policy the run had: its initial state and background time budget. The default is the
    ///     default policy; pass the simulator's (`BackgroundTaskSimulator.configuration`), or use
    ///     `BackgroundTaskSimulator.timeline(title:)`, which does.
    ///   - end: The last second shown; `nil` for the last entry's time.
    ///   - title: What the picture shows.
    public init(
        simulatorLog log: [SimulatorLogEntry], assertions: [SimulatedAssertionHistory] = [],
        configuration: SimulatorConfiguration = SimulatorConfiguration(), end: TimeInterval? = nil,
        title: String = "Simulated run"
    ) {
        var builder = SimulatorTimelineBuilder(configuration: configuration, assertions: assertions)
        for entry in log { builder.apply(entry) }
        let last = max(end ?? 0, log.last?.time ?? 0)
        self = builder.finish(at: last.isFinite ? last : (log.last?.time ?? 0), title: title)
    }
}

/// Walks a simulator's log once and collects the lanes, states, budgets and moments of its timeline.
struct SimulatorTimelineBuilder {
    private let budgetSeconds: Double
    private let histories: [Int: SimulatedAssertionHistory]
    private var lanes: [TimelineLane] = []
    /// Open lanes: assertions by identifier, scheduled tasks and file locks by name.
    private var openAssertions: [Int: Int] = [:]
    private var laneOfAssertion: [Int: Int] = [:]
    /// Open scheduled tasks and file locks by identifier or name, oldest first: one identifier can be launched again
    /// while its first launch runs, and one lock name taken twice.
    private var openScheduled: [String: [Int]] = [:]
    private var openLocks: [String: [Int]] = [:]
    private var states: [TimelineStateSpan] = []
    private var state: TimelineStateSpan.State
    private var stateSince: Double = 0
    private var budgets: [TimelineBudget] = []
    private var stay: TimelineBudget?
    private var runSince: Double?
    /// The background time used in the current stay (kept, not summed again at each run).
    private var usedInStay: Double = 0
    private var moments: [TimelineMoment] = []
    private var termination: TimelineTermination?

    init(configuration: SimulatorConfiguration, assertions: [SimulatedAssertionHistory]) {
        // NaN counts as 0, as in the simulator; `.infinity` is a budget that never runs out.
        budgetSeconds = configuration.backgroundTimeBudget.isNaN ? 0 : max(configuration.backgroundTimeBudget, 0)
        histories = Dictionary(assertions.map { ($0.assertion.identifier.rawValue, $0) }) { first, _ in first }
        state = Self.state(configuration.initialState)
        if state == .background { stay = TimelineBudget(seconds: budgetSeconds, from: 0, to: 0, runs: []) }
    }

    private static func state(_ state: SimulatedAppState) -> TimelineStateSpan.State {
        switch state {
        case .foreground: .foreground
        case .background: .background
        case .suspended: .suspended
        case .terminated: .terminated
        }
    }

    mutating func apply(_ entry: SimulatorLogEntry) {
        let time = entry.time
        switch entry.event {
        case .appStateChanged(let newState): changeState(to: Self.state(newState), at: time)
        case .began(let identifier, let name):
            let history = histories[identifier.rawValue]
            openAssertions[identifier.rawValue] = lanes.count
            laneOfAssertion[identifier.rawValue] = lanes.count
            lanes.append(
                TimelineLane(
                    name: name, identifier: String(identifier.rawValue),
                    callSite: history?.assertion.callSite?.description, begin: time, end: nil, ending: .stillHeld))
            updateRun(at: time)
        case .ended(let identifier):
            guard let index = openAssertions.removeValue(forKey: identifier.rawValue) else { return }
            lanes[index].end = time
            if case .endedBySafetyNet = histories[identifier.rawValue]?.ending {
                lanes[index].ending = .endedBySafetyNet
            } else {
                lanes[index].ending = .ended
            }
            updateRun(at: time)
        case .notGranted(let name):
            moments.append(
                TimelineMoment(kind: .refused, time: time, text: "begin refused: \(SimulatorEvent.quoted(name))"))
        case .backgroundTimeExpired:
            if stay != nil, stay?.handlersCalledAt == nil { stay?.handlersCalledAt = time }
            moments.append(
                TimelineMoment(
                    kind: .handlersCalled, time: time,
                    text: "background time ran out: the system calls the expiration handlers"))
        case .expirationHandlerCalled(let identifier, let onMainActor):
            let text = "expiration handler called" + (onMainActor ? "" : " (off the main actor)")
            markAssertion(identifier, .expirationHandlerCalled, time, text)
        case .expirationHandlerReturned(let identifier):
            markAssertion(identifier, .expirationHandlerReturned, time, "expiration handler returned")
        case .console(let message): console(message, at: time)
        case .terminated(let record):
            termination = TimelineTermination(time: time, code: record.code.description, reason: record.reason.rawValue)
            changeState(to: .terminated, at: time)
        case .terminationPreventedByDebugger(let record):
            moments.append(
                TimelineMoment(
                    kind: .terminationPrevented, time: time,
                    text:
                        "the debugger kept the app alive; without it: terminated \(record.code) (\(record.reason.rawValue))"
                ))
        case .misuse(let misuse):
            moments.append(TimelineMoment(kind: .note, time: time, text: "misuse: \(misuse)"))
        case .fileLockTaken(let name):
            openLocks[name, default: []].append(lanes.count)
            lanes.append(TimelineLane(kind: .fileLock, name: name, begin: time, end: nil, ending: .stillHeld))
        case .fileLockReleased(let name):
            guard let index = Self.takeOldest(name, from: &openLocks) else { return }
            lanes[index].end = time
            lanes[index].ending = .ended
        default: applyScheduled(entry.event, at: time)
        }
    }

    private mutating func applyScheduled(_ event: SimulatorEvent, at time: TimeInterval) {
        switch event {
        case .scheduledTaskLaunched(let identifier):
            openScheduled[identifier, default: []].append(lanes.count)
            lanes.append(
                TimelineLane(kind: .scheduledTask, name: identifier, begin: time, end: nil, ending: .stillHeld))
        case .scheduledTaskExpired(let identifier, let hasHandler):
            guard let index = openScheduled[identifier]?.first else { return }
            let text =
                hasHandler
                ? "its time ran out: expiration handler called"
                : "its time ran out with no expiration handler: the system marked it complete, unsuccessful"
            lanes[index].marks.append(TimelineMark(kind: .expirationHandlerCalled, time: time, text: text))
            if !hasHandler {
                _ = Self.takeOldest(identifier, from: &openScheduled)
                lanes[index].end = time
                lanes[index].ending = .endedBySystem
            }
        case .scheduledTaskCompleted(let identifier, let success):
            guard let index = Self.takeOldest(identifier, from: &openScheduled) else { return }
            lanes[index].end = time
            lanes[index].ending = .ended
            if !success {
                lanes[index].marks.append(TimelineMark(kind: .note, time: time, text: "completed, success: false"))
            }
        case .scheduledTaskCompletionIgnored(let identifier):
            moments.append(TimelineMoment(kind: .note, time: time, text: "\(identifier) completed again: ignored"))
        case .scheduledTaskSubmitted(let request):
            moments.append(TimelineMoment(kind: .note, time: time, text: "submitted: \(request)"))
        case .continuedProcessingSubmitted(let identifier, let queued):
            moments.append(
                TimelineMoment(
                    kind: .note, time: time,
                    text: "continued processing submitted: \(identifier)\(queued ? ", queued" : "")"))
        case .continuedProcessingStopped(let identifier):
            guard let index = openScheduled[identifier]?.first else { return }
            lanes[index].marks.append(TimelineMark(kind: .note, time: time, text: "the person stopped it"))
        default: return
        }
    }

    /// The oldest open lane under `key`, removed from the open ones.
    private static func takeOldest(_ key: String, from open: inout [String: [Int]]) -> Int? {
        guard var indices = open[key], !indices.isEmpty else { return nil }
        let index = indices.removeFirst()
        open[key] = indices.isEmpty ? nil : indices
        return index
    }

    private mutating func markAssertion(
        _ identifier: BackgroundTaskIdentifier?, _ kind: TimelineMark.Kind, _ time: TimeInterval, _ text: String
    ) {
        guard let identifier, let index = laneOfAssertion[identifier.rawValue] else {
            if kind == .expirationHandlerCalled {
                moments.append(
                    TimelineMoment(
                        kind: .note, time: time, text: "the expiration handler of a refused begin was called"))
            }
            return
        }
        lanes[index].marks.append(TimelineMark(kind: kind, time: time, text: text))
    }

    private mutating func console(_ message: ConsoleMessage, at time: TimeInterval) {
        let lane: (Int, TimelineMark.Kind)? =
            switch message {
            case .taskCreatedTooLongAgo(let identifier, _, _): (identifier.rawValue, .warning)
            case .cannotEndTask(let identifier): (identifier.rawValue, .endedTwice)
            case .taskNotEndedAfterExpirationHandlers(let identifier, _, _, _):
                (identifier.rawValue, .heldAfterHandlers)
            }
        if let (identifier, kind) = lane, let index = laneOfAssertion[identifier] {
            lanes[index].marks.append(TimelineMark(kind: kind, time: time, text: "console: \(message.text)"))
        } else {
            moments.append(TimelineMoment(kind: .console, time: time, text: message.text))
        }
    }

    // MARK: - State and budget

    private mutating func changeState(to newState: TimelineStateSpan.State, at time: TimeInterval) {
        if time > stateSince || states.isEmpty {
            states.append(TimelineStateSpan(state: state, from: stateSince, to: time))
        }
        state = newState
        stateSince = time
        updateRun(at: time)
        if newState != .background, var closing = stay {
            closing.to = time
            budgets.append(closing)
            stay = nil
        } else if newState == .background, stay == nil {
            stay = TimelineBudget(seconds: budgetSeconds, from: time, to: time, runs: [])
            usedInStay = 0
        }
        updateRun(at: time)
    }

    /// Starts or stops the run of the background time: it runs in the background while an assertion is held.
    private mutating func updateRun(at time: TimeInterval) {
        let running = state == .background && !openAssertions.isEmpty && stay != nil
        if running, runSince == nil {
            runSince = time
        } else if !running, let since = runSince {
            closeRun(from: since, to: time)
            runSince = nil
        }
    }

    private mutating func closeRun(from: TimeInterval, to: TimeInterval) {
        guard var current = stay else { return }
        if current.goneAt == nil, current.seconds.isFinite, usedInStay + (to - from) >= current.seconds {
            current.goneAt = from + max(current.seconds - usedInStay, 0)
        }
        if to > from {
            current.runs.append(TimelineBudget.Run(from: from, to: to))
            usedInStay += to - from
        }
        stay = current
    }

    mutating func finish(at end: TimeInterval, title: String) -> BackgroundTaskTimeline {
        if let since = runSince { closeRun(from: since, to: end) }
        runSince = nil
        if var closing = stay {
            closing.to = end
            budgets.append(closing)
            stay = nil
        }
        states.append(TimelineStateSpan(state: state, from: stateSince, to: end))
        for index in lanes.indices where lanes[index].end == nil {
            lanes[index].ending = termination == nil ? .stillHeld : .heldAtTermination
        }
        var timeline = BackgroundTaskTimeline(
            title: title, start: 0, end: end, lanes: lanes, appStates: states, budgets: budgets, moments: moments,
            termination: termination)
        timeline.subtitle = Self.verdict(timeline)
        return timeline
    }

    /// `terminated 0x8badf00d at 35 s (assertionsHeldAfterExpiration)`, `2 assertions still held at 120 s`, …
    static func verdict(_ timeline: BackgroundTaskTimeline) -> String {
        if let termination = timeline.termination {
            return "terminated \(termination.code) at \(formatSeconds(termination.time)) s (\(termination.reason))"
        }
        let held = timeline.heldLanes.count
        if let prevented = timeline.moments.first(where: { $0.kind == .terminationPrevented }) {
            return
                "alive only because the debugger was attached: without it, killed at \(formatSeconds(prevented.time)) s"
                + (held > 0 ? "; \(held) still held at \(formatSeconds(timeline.end)) s" : "")
        }
        if held > 0 { return "\(held) still held at \(formatSeconds(timeline.end)) s" }
        if let expiry = timeline.moments.first(where: { $0.kind == .handlersCalled }) {
            return "background time ran out at \(formatSeconds(expiry.time)) s; everything ended, no termination"
        }
        return "everything ended; no termination"
    }
}
