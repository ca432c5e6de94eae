/// What happened to an app's background tasks over a stretch of time, ready to draw: one lane per assertion (or
/// scheduled task, or file lock), the app's state, the background time and how it was spent, the moments the system
/// acted, and the termination with its code.
///
/// A timeline is plain data with no dependency. The simulator, the flight recorder and saved reports make one
/// (`BackgroundTaskSimulator.timeline()`, `BackgroundTaskTimeline(snapshot:)`, `BackgroundTaskTimeline(report:)`);
/// ``svg(options:)`` draws it as a standalone SVG picture and ``text(options:)`` as lines for a terminal:
///
/// ```swift
/// let timeline = simulator.timeline(title: "Export, naive")
/// try timeline.svg().write(toFile: "export.svg", atomically: true, encoding: .utf8)
/// print(timeline.text())
/// ```
///
/// Times are seconds on the source's clock: the simulator's virtual time, or seconds before a snapshot was taken.
public struct BackgroundTaskTimeline: Codable, Equatable, Sendable {
    /// What the picture shows, for example `property-overwrite — naive`.
    public var title: String
    /// The verdict in one line, for example `terminated 0x8badf00d at 30 s`; `nil` for none.
    public var subtitle: String?
    /// The first second shown.
    public var start: Double
    /// The last second shown; lanes still held are drawn up to here.
    public var end: Double
    /// One lane per assertion, scheduled task or file lock, in the order they began.
    public var lanes: [TimelineLane]
    /// The app's state over time, in order; gaps are left blank. None at all is drawn as an unknown state.
    public var appStates: [TimelineStateSpan]
    /// Each stay in the background with its budget of background time.
    public var budgets: [TimelineBudget]
    /// Moments the system acted or spoke: expiration handlers called, console messages, refused begins.
    public var moments: [TimelineMoment]
    /// The termination, if the app was killed.
    public var termination: TimelineTermination?
    /// Sentences the picture shows under the lanes: what the source cannot know, what was left out.
    public var notes: [String]

    /// Creates a timeline.
    ///
    /// - Parameters:
    ///   - title: What the picture shows.
    ///   - subtitle: The verdict in one line.
    ///   - start: The first second shown.
    ///   - end: The last second shown; a value before `start` (or not finite) is drawn as `start`.
    ///   - lanes: The lanes, in begin order.
    ///   - appStates: The app's state over time.
    ///   - budgets: The stays in the background.
    ///   - moments: The moments the system acted.
    ///   - termination: The termination, if any.
    ///   - notes: Sentences shown under the lanes.
    public init(
        title: String, subtitle: String? = nil, start: Double = 0, end: Double, lanes: [TimelineLane] = [],
        appStates: [TimelineStateSpan] = [], budgets: [TimelineBudget] = [], moments: [TimelineMoment] = [],
        termination: TimelineTermination? = nil, notes: [String] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.start = start
        self.end = end
        self.lanes = lanes
        self.appStates = appStates
        self.budgets = budgets
        self.moments = moments
        self.termination = termination
        self.notes = notes
    }

    /// The lanes still held when the timeline ends: at the termination, at the end of a settled run, or in flight
    /// when the source took its picture.
    public var heldLanes: [TimelineLane] {
        lanes.filter { $0.end == nil }
    }

    /// A summary in one sentence: the lanes, how many had problems, and the verdict; what a screen reader says
    /// for the whole picture.
    public var summary: String {
        let assertions = lanes.count { $0.kind == .assertion }
        var parts = ["\(assertions) assertion\(assertions == 1 ? "" : "s")"]
        let scheduled = lanes.count { $0.kind == .scheduledTask }
        if scheduled > 0 { parts.append("\(scheduled) scheduled task\(scheduled == 1 ? "" : "s")") }
        let locks = lanes.count { $0.kind == .fileLock }
        if locks > 0 { parts.append("\(locks) file lock\(locks == 1 ? "" : "s")") }
        let problems = lanes.count(where: \.hasProblem)
        var sentence = "\(title): " + parts.joined(separator: ", ") + " over \(TimelineNumber.seconds(end - start)) s"
        sentence += problems == 0 ? ", none with a problem" : ", \(problems) with a problem"
        if let termination {
            sentence += "; terminated \(termination.code) at \(TimelineNumber.seconds(termination.time)) s"
        } else if let subtitle {
            sentence += "; \(subtitle)"
        }
        return sentence + "."
    }
}
