import Foundation

/// What one call site's background tasks did: the counters of a ``BackgroundTaskReport``.
///
/// Counting is constant work per begin and end; the ages are computed when a report is made.
public struct CallSiteStatistics: Codable, Equatable, Sendable {
    /// The call site, as `#fileID`, `#line` and `#function` gave it.
    public var callSite: BackgroundTaskCallSite
    /// The distinct names its tasks had, in first-seen order (at most ``maximumNames``).
    public var names: [String]
    /// Begin calls, granted or not.
    public var begun = 0
    /// Tasks ended by their owner (or by `endAll()`).
    public var ended = 0
    /// Tasks ended because time ran out.
    public var expired = 0
    /// Tasks whose owner let go while they ran: leaks the deinit safety net caught.
    public var endedBySafetyNet = 0
    /// Begins a manager refused (its cap or its time guard).
    public var refused = 0
    /// Begins the system refused.
    public var notGranted = 0
    /// Tasks running now.
    public var outstanding = 0
    /// Age in seconds of the oldest task running now; `nil` when none runs.
    public var oldestOutstandingAge: TimeInterval?
    /// Clock time of the first and the last begin, in the engine clock's seconds.
    public var firstBeganAt: TimeInterval
    /// Clock time of the last begin.
    public var lastBeganAt: TimeInterval

    /// How many distinct names a call site keeps (names with counters in them would grow forever).
    public static let maximumNames = 8

    /// Creates empty statistics for a call site first seen at `time`.
    public init(callSite: BackgroundTaskCallSite, firstBeganAt time: TimeInterval) {
        self.callSite = callSite
        self.names = []
        self.firstBeganAt = time
        self.lastBeganAt = time
    }

    mutating func noteBegin(name: String?, at time: TimeInterval) {
        begun += 1
        lastBeganAt = time
        if let name, names.count < Self.maximumNames, !names.contains(name) {
            names.append(name)
        }
    }
}
