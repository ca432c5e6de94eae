import BackgroundTaskKit
import Foundation

/// A MetricKit metric payload's counts of the app's exits in the background (`MXBackgroundExitData`,
/// or iOS 27's `BackgroundTerminationMetric`), for comparing with the probable terminations a
/// ``FlightRecorder`` kept.
public struct BackgroundExitCounts: Codable, Equatable, Sendable {
    /// Exits because a background task was not ended in time: the count this package exists to keep
    /// at zero.
    public var backgroundTaskAssertionTimeout: Int
    /// Watchdog exits.
    public var appWatchdog: Int
    /// Normal exits.
    public var normal: Int
    /// Every other cause together (memory, CPU, bad access, abnormal, illegal instruction, locked file).
    public var other: Int
    /// The payload's build, if it says.
    public var appBuild: String?
    /// The payload's `timeStampBegin`, seconds since 1970.
    public var periodStart: TimeInterval?
    /// The payload's `timeStampEnd`, seconds since 1970.
    public var periodEnd: TimeInterval?

    /// Creates counts.
    public init(
        backgroundTaskAssertionTimeout: Int, appWatchdog: Int = 0, normal: Int = 0, other: Int = 0,
        appBuild: String? = nil, periodStart: TimeInterval? = nil, periodEnd: TimeInterval? = nil
    ) {
        self.backgroundTaskAssertionTimeout = backgroundTaskAssertionTimeout
        self.appWatchdog = appWatchdog
        self.normal = normal
        self.other = other
        self.appBuild = appBuild
        self.periodStart = periodStart
        self.periodEnd = periodEnd
    }

    /// The counts of an `MXBackgroundExitData`, through its mirror.
    public init(_ data: some MetricKitBackgroundExitDataMirror, appBuild: String?, periodStart: Date?, periodEnd: Date?)
    {
        self.init(
            backgroundTaskAssertionTimeout: data.cumulativeBackgroundTaskAssertionTimeoutExitCount,
            appWatchdog: data.cumulativeAppWatchdogExitCount,
            normal: data.cumulativeNormalAppExitCount,
            other: data.cumulativeMemoryResourceLimitExitCount + data.cumulativeCPUResourceLimitExitCount
                + data.cumulativeMemoryPressureExitCount + data.cumulativeBadAccessExitCount
                + data.cumulativeAbnormalExitCount + data.cumulativeIllegalInstructionExitCount
                + data.cumulativeSuspendedWithLockedFileExitCount,
            appBuild: appBuild, periodStart: periodStart?.timeIntervalSince1970,
            periodEnd: periodEnd?.timeIntervalSince1970
        )
    }

    /// The counts of an iOS 27 `BackgroundTerminationMetric`, through its mirror.
    public init(_ metric: some BackgroundTerminationMetricMirror, appBuild: String?) {
        self.init(
            backgroundTaskAssertionTimeout: metric.taskTimeoutTerminationCount,
            appWatchdog: metric.watchdogTerminationCount,
            normal: metric.normalTerminationCount,
            other: metric.memoryLimitTerminationCount + metric.highCPUTerminationCount
                + metric.systemPressureTerminationCount + metric.badAccessTerminationCount
                + metric.abnormalTerminationCount + metric.illegalInstructionTerminationCount
                + metric.fileLockTerminationCount,
            appBuild: appBuild
        )
    }
}
