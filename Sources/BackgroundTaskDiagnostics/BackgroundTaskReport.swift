@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// Everything a manager (or a ``DiagnosingBackend``) knows about the tasks begun through it, as a
/// value with a stable,
/// versioned JSON encoding: the counters per call site, the tasks still running, and the most that
/// were running at once.
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// let json = try encoder.encode(diagnosingBackend.report())
/// ```
///
/// `Documentation/Diagnostics.md` describes the schema, with an example.
public struct BackgroundTaskReport: Codable, Equatable, Sendable {
    /// The schema version this package writes: 2 since the tracer's counters (``CallSiteStatistics/unnamed``
    /// and the four after it); version 1 reports decode with those counters `0`.
    public static let currentVersion = 2

    /// The schema version of this report.
    public var version: Int
    /// The engine clock's time when the report was made, in seconds.
    public var generatedAt: TimeInterval
    /// The most tasks that were running at once.
    public var outstandingHighWaterMark: Int
    /// One entry per call site that began a task, ordered by file, line and function.
    public var callSites: [CallSiteStatistics]
    /// The tasks running now, in begin order.
    public var outstandingTasks: [OutstandingBackgroundTask]

    /// Creates a report.
    public init(
        version: Int = BackgroundTaskReport.currentVersion,
        generatedAt: TimeInterval,
        outstandingHighWaterMark: Int,
        callSites: [CallSiteStatistics],
        outstandingTasks: [OutstandingBackgroundTask]
    ) {
        self.version = version
        self.generatedAt = generatedAt
        self.outstandingHighWaterMark = outstandingHighWaterMark
        self.callSites = callSites
        self.outstandingTasks = outstandingTasks
    }
}
