/// One row of a timeline: an assertion, a launched scheduled task or a file lock, from its begin to its end.
public struct TimelineLane: Codable, Equatable, Sendable {
    /// What the lane stands for.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A `beginBackgroundTask` assertion.
        case assertion
        /// A `BGTaskScheduler` task (or continued-processing job) the system launched.
        case scheduledTask
        /// A file lock the app held (the cause of `0xdead10cc` when held at suspension).
        case fileLock
    }

    /// How the lane ended.
    public enum Ending: String, Codable, Sendable, CaseIterable {
        /// Its owner ended it (or completed it, for a scheduled task).
        case ended
        /// A safety net ended it: its owner let go while it ran, a leak at its call site.
        case endedBySafetyNet
        /// The tracer's rescue ended it for its owner, inside its expiration handler.
        case rescued
        /// The system ended it: a scheduled task that expired with no expiration handler.
        case endedBySystem
        /// Its time ran out, and the source reports nothing after that: a manager's task that the expiry ended, or an
        /// observed task whose end after its expiry was not reported.
        case expired
        /// It was still held when the app was terminated.
        case heldAtTermination
        /// It was still held when the run's picture was taken; at the end of a run that has settled (as `bgtask
        /// simulate` runs do), nothing would have ended it: a leak.
        case stillHeld
        /// It was running when the source took its picture (a snapshot, a report, the last observed event): work in
        /// progress, not a problem in itself.
        case inFlight
    }

    /// What kind of thing the lane stands for.
    public var kind: Kind
    /// Its name, as the app gave it; `nil` when unnamed.
    public var name: String?
    /// The system's identifier for it, for example `3`, or a scheduled task's identifier.
    public var identifier: String?
    /// The line or symbol that began it, when known (`App/Export.swift:12 (export())`).
    public var callSite: String?
    /// When it began.
    public var begin: Double
    /// When it ended; `nil` while it is held to the end of the timeline.
    public var end: Double?
    /// How it ended.
    public var ending: Ending
    /// What happened to it in between, in time order.
    public var marks: [TimelineMark]

    /// Creates a lane.
    public init(
        kind: Kind = .assertion, name: String?, identifier: String? = nil, callSite: String? = nil, begin: Double,
        end: Double?, ending: Ending, marks: [TimelineMark] = []
    ) {
        self.kind = kind
        self.name = name
        self.identifier = identifier
        self.callSite = callSite
        self.begin = begin
        self.end = end
        self.ending = ending
        self.marks = marks
    }

    /// The name as a label: the name, or `(unnamed)`.
    public var label: String {
        guard let name, !name.isEmpty else { return "(unnamed)" }
        return name
    }

    /// Whether anything went wrong: it was not ended by its owner (and was not simply in flight), or the system
    /// expired it, warned about it or found it held after its handlers. Lanes with a problem are never folded into a
    /// density band while there is room for them.
    public var hasProblem: Bool {
        (ending != .ended && ending != .inFlight) || marks.contains { $0.kind.isProblem }
    }

    /// Seconds it was held, up to `timelineEnd` while held to the end.
    public func heldTime(until timelineEnd: Double) -> Double {
        max((end ?? timelineEnd) - begin, 0)
    }
}

/// Something that happened to one lane at a moment.
public struct TimelineMark: Codable, Equatable, Sendable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The system called its expiration handler (its time ran out).
        case expirationHandlerCalled
        /// Its expiration handler returned.
        case expirationHandlerReturned
        /// It was still held after its expiration handlers returned: the system terminates an app in this state.
        case heldAfterHandlers
        /// iOS printed a warning about it (held over 30 s).
        case warning
        /// It was ended again after it had ended ("Can't end BackgroundTask").
        case endedTwice
        /// Something else worth a note (a progress report, a person's stop).
        case note

        /// Whether the mark is a sign of trouble: everything but a handler's return and a note.
        public var isProblem: Bool {
            switch self {
            case .expirationHandlerCalled, .heldAfterHandlers, .warning, .endedTwice: true
            case .expirationHandlerReturned, .note: false
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// When.
    public var time: Double
    /// The words shown on hover and read by screen readers.
    public var text: String

    /// Creates a mark.
    public init(kind: Kind, time: Double, text: String) {
        self.kind = kind
        self.time = time
        self.text = text
    }
}
