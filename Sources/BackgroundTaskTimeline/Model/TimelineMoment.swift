/// A moment the system acted or spoke, drawn on the timeline's system row.
public struct TimelineMoment: Codable, Equatable, Sendable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Background time ran out: the system called the expiration handlers.
        case handlersCalled
        /// The system printed a console message.
        case console
        /// The system refused a begin.
        case refused
        /// Under the debugger, a termination that did not happen.
        case terminationPrevented
        /// A scheduled task was submitted or launched, or something else worth a note.
        case note
    }

    /// What happened.
    public var kind: Kind
    /// When.
    public var time: Double
    /// The words shown on hover and read by screen readers.
    public var text: String

    /// Creates a moment.
    public init(kind: Kind, time: Double, text: String) {
        self.kind = kind
        self.time = time
        self.text = text
    }
}

/// The system's termination of the app: when, with which exception code, and why.
public struct TimelineTermination: Codable, Equatable, Sendable {
    /// When.
    public var time: Double
    /// The crash report's exception code, for example `0x8badf00d`.
    public var code: String
    /// Why, in words.
    public var reason: String

    /// Creates a termination.
    public init(time: Double, code: String, reason: String) {
        self.time = time
        self.code = code
        self.reason = reason
    }
}
