@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
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
    /// Begins with no name, or an empty one (iOS's warnings about them cannot say which code leaked).
    public var unnamed = 0
    /// Raw assertions a `BackgroundTaskTracer` saw still held after their expiration handler
    /// returned: each is one the system terminates the app for, unless rescued.
    public var heldAfterHandlers = 0
    /// Raw assertions a `BackgroundTaskTracer` ended for their owner (counted among ``expired`` too).
    public var rescued = 0
    /// Ends of an assertion that was already ended (seen by a `BackgroundTaskTracer`).
    public var doubleEnds = 0
    /// Ends of a rescued assertion by its owner after the rescue (not passed on to the system).
    public var endedAfterRescue = 0
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

    private enum CodingKeys: String, CodingKey {
        case callSite, names, begun, ended, expired, endedBySafetyNet, refused, notGranted, outstanding
        case unnamed, heldAfterHandlers, rescued, doubleEnds, endedAfterRescue
        case oldestOutstandingAge, firstBeganAt, lastBeganAt
    }

    /// Decodes statistics; the counters added in report version 2 (``unnamed``,
    /// ``heldAfterHandlers``, ``rescued``, ``doubleEnds``, ``endedAfterRescue``) are `0` when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        callSite = try container.decode(BackgroundTaskCallSite.self, forKey: .callSite)
        names = try container.decode([String].self, forKey: .names)
        begun = try container.decode(Int.self, forKey: .begun)
        ended = try container.decode(Int.self, forKey: .ended)
        expired = try container.decode(Int.self, forKey: .expired)
        endedBySafetyNet = try container.decode(Int.self, forKey: .endedBySafetyNet)
        refused = try container.decode(Int.self, forKey: .refused)
        notGranted = try container.decode(Int.self, forKey: .notGranted)
        outstanding = try container.decode(Int.self, forKey: .outstanding)
        unnamed = try container.decodeIfPresent(Int.self, forKey: .unnamed) ?? 0
        heldAfterHandlers = try container.decodeIfPresent(Int.self, forKey: .heldAfterHandlers) ?? 0
        rescued = try container.decodeIfPresent(Int.self, forKey: .rescued) ?? 0
        doubleEnds = try container.decodeIfPresent(Int.self, forKey: .doubleEnds) ?? 0
        endedAfterRescue = try container.decodeIfPresent(Int.self, forKey: .endedAfterRescue) ?? 0
        oldestOutstandingAge = try container.decodeIfPresent(TimeInterval.self, forKey: .oldestOutstandingAge)
        firstBeganAt = try container.decode(TimeInterval.self, forKey: .firstBeganAt)
        lastBeganAt = try container.decode(TimeInterval.self, forKey: .lastBeganAt)
    }

    mutating func noteBegin(name: String?, at time: TimeInterval) {
        begun += 1
        if name?.isEmpty ?? true { unnamed += 1 }
        lastBeganAt = time
        if let name, names.count < Self.maximumNames, !names.contains(name) {
            names.append(name)
        }
    }
}
