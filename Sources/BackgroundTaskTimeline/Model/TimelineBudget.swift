/// One stay in the background and its budget of background time: when the time ran (the app held an assertion),
/// when the system called the expiration handlers, and when the budget was gone.
public struct TimelineBudget: Codable, Equatable, Sendable {
    /// A stretch during which the background time ran.
    public struct Run: Codable, Equatable, Sendable {
        /// When it started.
        public var from: Double
        /// When it stopped.
        public var to: Double

        /// Creates a run.
        public init(from: Double, to: Double) {
            self.from = from
            self.to = to
        }
    }

    /// The seconds of background time granted on entering the background (30 on current iOS).
    public var seconds: Double
    /// When the app entered the background.
    public var from: Double
    /// When it left the background (was suspended, came back or was killed).
    public var to: Double
    /// When the time ran, in order.
    public var runs: [Run]
    /// When the system called the expiration handlers, if it did.
    public var handlersCalledAt: Double?
    /// When the budget was gone, if it ran out.
    public var goneAt: Double?

    /// Creates a budget.
    public init(
        seconds: Double, from: Double, to: Double, runs: [Run], handlersCalledAt: Double? = nil, goneAt: Double? = nil
    ) {
        self.seconds = seconds
        self.from = from
        self.to = to
        self.runs = runs
        self.handlersCalledAt = handlersCalledAt
        self.goneAt = goneAt
    }

    /// The seconds of background time used.
    public var used: Double {
        runs.reduce(0) { $0 + max($1.to - $1.from, 0) }
    }
}
