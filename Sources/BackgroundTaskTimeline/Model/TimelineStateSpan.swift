/// The app's state over one stretch of a timeline.
public struct TimelineStateSpan: Codable, Equatable, Sendable {
    /// A state of the app, as iOS sees it.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// On screen: assertions cost no background time.
        case foreground
        /// Off screen and running: the background time runs while an assertion is held.
        case background
        /// Off screen and stopped: no code runs.
        case suspended
        /// Killed by the system.
        case terminated
        /// Not known to the source (a snapshot knows only the moment it was taken).
        case unknown
    }

    /// The state.
    public var state: State
    /// When it began.
    public var from: Double
    /// When it ended.
    public var to: Double

    /// Creates a span.
    public init(state: State, from: Double, to: Double) {
        self.state = state
        self.from = from
        self.to = to
    }
}
