import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskTimeline
import Foundation

extension BackgroundTaskTimeline {
    /// The timeline of the events an observer of a `DiagnosingBackend`, a manager with diagnostics or a
    /// `BackgroundTaskTracer` received: one lane per task, from its begin to its end, with the moments its expiry
    /// started, its handler returned and it became stale, and how it ended (by its owner, by the safety net, by the
    /// tracer's rescue).
    ///
    /// Unlike a report or a snapshot, events keep every task's times, so an app can draw its own run from the field:
    ///
    /// ```swift
    /// let recorder = TimelineEventRecorder()  // keeps the last 10,000 events
    /// diagnosingBackend.addObserver(recorder)
    /// // … later, in a debug menu:
    /// let svg = BackgroundTaskTimeline(events: recorder.events).svg()  // or recorder.timeline().svg()
    /// ```
    ///
    /// Sources report an expiry differently: a manager's task ends with it, a diagnosing backend reports no end after
    /// it, a tracer ends it in the handler or reports it held after its handlers. So a task whose expiry started and
    /// that reports no end afterwards is drawn up to its last event with the ending `.expired`;
    /// one reported held after its handlers stays held. A task still running at the last event is
    /// `.inFlight`. Events for a task after it ended (a second end, a handler's return) mark its
    /// lane; they never open another.
    ///
    /// Events carry no app state or budget: the state row shows an unknown state. Time 0 is the first event's time.
    /// Tasks are told apart by their `TaskID` (its source and number); lanes show the number.
    ///
    /// - Parameters:
    ///   - events: The events, in the order they were received.
    ///   - title: What the picture shows.
    public init(events: [BackgroundTaskEvent], title: String = "Observed background tasks") {
        var builder = EventTimelineBuilder(origin: events.map(\.time).filter(\.isFinite).min() ?? 0)
        for event in events { builder.apply(event) }
        self = builder.finish(title: title)
    }
}

/// Walks observer events once and collects one lane per task.
private struct EventTimelineBuilder {
    let origin: Double
    var lanes: [TimelineLane] = []
    /// Each task's lane, open or ended.
    var laneOfTask: [BackgroundTaskEvent.TaskID: Int] = [:]
    /// Lanes whose expiry started, with the time of their last event, and whether they were reported held after it.
    var expiredAt: [Int: Double] = [:]
    var heldAfterHandlers: Set<Int> = []
    var moments: [TimelineMoment] = []
    var last: Double = 0

    init(origin: Double) {
        self.origin = origin
    }

    mutating func apply(_ event: BackgroundTaskEvent) {
        let time = event.time.isFinite ? event.time - origin : last
        last = max(last, time)
        switch event.kind {
        case .refused(let error):
            moments.append(
                TimelineMoment(kind: .refused, time: time, text: "\(event.name ?? "(unnamed)") refused: \(error)"))
            return
        case .limitApproaching(let outstanding, let limit):
            moments.append(
                TimelineMoment(kind: .note, time: time, text: "\(outstanding) of \(limit) tasks held: near the limit"))
            return
        default: break
        }
        let index = lane(for: event, at: time)
        let open = lanes[index].end == nil
        switch event.kind {
        case .began, .expirationHandlerEntered, .refused, .limitApproaching: return
        case .ended, .endedBySafetyNet, .rescued:
            guard open else {
                mark(index, .endedTwice, time, "ended again after it had ended")
                return
            }
            lanes[index].end = time
            lanes[index].ending =
                event.kind == .ended ? .ended : event.kind == .rescued ? .rescued : .endedBySafetyNet
            expiredAt[index] = nil
        case .expired:
            if expiredAt[index] == nil, !lanes[index].marks.contains(where: { $0.kind == .expirationHandlerCalled }) {
                mark(index, .expirationHandlerCalled, time, "time ran out: its expiry started")
            }
            if open { expiredAt[index] = time }
        case .expirationHandlerExited(let duration):
            mark(
                index, .expirationHandlerReturned, time,
                "its expiration cleanup returned after \(formatSeconds(duration)) s")
            if open, expiredAt[index] != nil { expiredAt[index] = time }
        case .stale(let age): mark(index, .warning, time, "held \(formatSeconds(age)) s: over the stale age")
        case .heldAfterExpirationHandlers:
            mark(index, .heldAfterHandlers, time, "still held after its expiration handler returned")
            heldAfterHandlers.insert(index)
        case .endedTwice: mark(index, .endedTwice, time, "ended again after it had ended")
        case .endedAfterRescue: mark(index, .note, time, "its owner ended it after the tracer's rescue")
        }
    }

    /// The task's lane; a task seen first by an event other than `began` gets a lane from that event.
    private mutating func lane(for event: BackgroundTaskEvent, at time: Double) -> Int {
        if let index = laneOfTask[event.taskID] { return index }
        laneOfTask[event.taskID] = lanes.count
        lanes.append(
            TimelineLane(
                name: event.name, identifier: event.taskID.description, callSite: event.callSite.description,
                begin: time, end: nil, ending: .inFlight))
        return lanes.count - 1
    }

    private mutating func mark(_ index: Int, _ kind: TimelineMark.Kind, _ time: Double, _ text: String) {
        lanes[index].marks.append(TimelineMark(kind: kind, time: time, text: text))
    }

    mutating func finish(title: String) -> BackgroundTaskTimeline {
        for (index, time) in expiredAt where !heldAfterHandlers.contains(index) && lanes[index].end == nil {
            lanes[index].end = time
            lanes[index].ending = .expired
        }
        let held = lanes.count { $0.end == nil }
        return BackgroundTaskTimeline(
            title: title, subtitle: held == 0 ? "every task ended" : "\(held) still held at the last event",
            start: 0, end: last, lanes: lanes, appStates: [TimelineStateSpan(state: .unknown, from: 0, to: last)],
            moments: moments,
            notes: ["Drawn from observer events: the app's state and its background time are not among them."])
    }
}
