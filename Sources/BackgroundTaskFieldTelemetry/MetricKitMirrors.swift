import BackgroundTaskKit
import Foundation

// Mirrors of the MetricKit declarations the field telemetry reads, copied from Apple's (iOS 14+ /
// macOS 12+; MetricKit has no tvOS or watchOS). `MXMetaData`, `MXCrashDiagnostic`,
// `MXDiagnosticPayload` and `MXBackgroundExitData` conform with empty extensions (plus one accessor
// for `pid`, which is iOS 17+) in `MetricKitConformances.swift`; tests conform stand-ins with the same
// declarations. Listed in Documentation/FieldTelemetry.md.

/// The part of `MXMetaData` the matching reads.
public protocol MetricKitMetaDataMirror {
    /// `MXMetaData.applicationBuildVersion`: the app's build (`CFBundleVersion`).
    var applicationBuildVersion: String { get }
    /// `MXMetaData.osVersion`.
    var osVersion: String { get }
    /// `MXMetaData.pid` where the system reports it (iOS 17, macOS 14 and later), `nil` before and
    /// when MetricKit says −1. Not an Apple declaration: the conformance's one accessor.
    var reportedProcessID: Int32? { get }
}

/// The part of `MXCrashDiagnostic` (and its superclass `MXDiagnostic`) the matching reads.
public protocol MetricKitCrashDiagnosticMirror {
    /// `MXMetaData` in MetricKit.
    associatedtype MetaData: MetricKitMetaDataMirror
    /// `MXDiagnostic.metaData`.
    var metaData: MetaData { get }
    /// `MXCrashDiagnostic.exceptionType`.
    var exceptionType: NSNumber? { get }
    /// `MXCrashDiagnostic.exceptionCode`.
    var exceptionCode: NSNumber? { get }
    /// `MXCrashDiagnostic.signal`.
    var signal: NSNumber? { get }
    /// `MXCrashDiagnostic.terminationReason`.
    var terminationReason: String? { get }
}

/// The part of `MXDiagnosticPayload` the matching reads.
public protocol MetricKitDiagnosticPayloadMirror {
    /// `MXCrashDiagnostic` in MetricKit.
    associatedtype CrashDiagnostic: MetricKitCrashDiagnosticMirror
    /// `MXDiagnosticPayload.crashDiagnostics`.
    var crashDiagnostics: [CrashDiagnostic]? { get }
    /// `MXDiagnosticPayload.timeStampBegin`.
    var timeStampBegin: Date { get }
    /// `MXDiagnosticPayload.timeStampEnd`.
    var timeStampEnd: Date { get }
}

/// `MXBackgroundExitData`: the day's counts of the app's exits in the background, by cause.
public protocol MetricKitBackgroundExitDataMirror {
    /// `cumulativeNormalAppExitCount`.
    var cumulativeNormalAppExitCount: Int { get }
    /// `cumulativeMemoryResourceLimitExitCount`.
    var cumulativeMemoryResourceLimitExitCount: Int { get }
    /// `cumulativeCPUResourceLimitExitCount`.
    var cumulativeCPUResourceLimitExitCount: Int { get }
    /// `cumulativeMemoryPressureExitCount`.
    var cumulativeMemoryPressureExitCount: Int { get }
    /// `cumulativeBadAccessExitCount`.
    var cumulativeBadAccessExitCount: Int { get }
    /// `cumulativeAbnormalExitCount`.
    var cumulativeAbnormalExitCount: Int { get }
    /// `cumulativeIllegalInstructionExitCount`.
    var cumulativeIllegalInstructionExitCount: Int { get }
    /// `cumulativeAppWatchdogExitCount`.
    var cumulativeAppWatchdogExitCount: Int { get }
    /// `cumulativeSuspendedWithLockedFileExitCount`.
    var cumulativeSuspendedWithLockedFileExitCount: Int { get }
    /// `cumulativeBackgroundTaskAssertionTimeoutExitCount`: exits because a background task was not
    /// ended in time ("usually occurs when the app fails to call endBackgroundTask").
    var cumulativeBackgroundTaskAssertionTimeoutExitCount: Int { get }
}

/// iOS 27's `BackgroundTerminationMetric` (the new MetricKit), as Apple's documentation declares
/// its counts (`let …: Int`). This package cannot compile against an iOS 27 SDK yet, so it ships no
/// conformance: an app built with one adds `extension BackgroundTerminationMetric:
/// BackgroundTerminationMetricMirror {}`.
public protocol BackgroundTerminationMetricMirror {
    /// `taskTimeoutTerminationCount`: terminations for exceeding a background task's time.
    var taskTimeoutTerminationCount: Int { get }
    /// `normalTerminationCount`.
    var normalTerminationCount: Int { get }
    /// `memoryLimitTerminationCount`.
    var memoryLimitTerminationCount: Int { get }
    /// `highCPUTerminationCount`.
    var highCPUTerminationCount: Int { get }
    /// `systemPressureTerminationCount`.
    var systemPressureTerminationCount: Int { get }
    /// `badAccessTerminationCount`.
    var badAccessTerminationCount: Int { get }
    /// `abnormalTerminationCount`.
    var abnormalTerminationCount: Int { get }
    /// `illegalInstructionTerminationCount`.
    var illegalInstructionTerminationCount: Int { get }
    /// `watchdogTerminationCount`.
    var watchdogTerminationCount: Int { get }
    /// `fileLockTerminationCount`.
    var fileLockTerminationCount: Int { get }
}

/// iOS 27's `CrashDiagnostic.TerminationCategory`: a struct whose values are `static let`s; only
/// `taskTimeout` matters here. As with ``BackgroundTerminationMetricMirror``, the app adds the
/// conformance when built with an iOS 27 SDK.
public protocol TerminationCategoryMirror: Equatable {
    /// `static let taskTimeout`: "terminated for exceeding the allocated time for a background task".
    static var taskTimeout: Self { get }
}

extension CrashDiagnosticRecord {
    /// The record of an `MXCrashDiagnostic`, through its mirror.
    ///
    /// - Parameters:
    ///   - diagnostic: The crash diagnostic.
    ///   - periodStart: Its payload's `timeStampBegin`.
    ///   - periodEnd: Its payload's `timeStampEnd`.
    public init(_ diagnostic: some MetricKitCrashDiagnosticMirror, periodStart: Date?, periodEnd: Date?) {
        self.init(
            processID: diagnostic.metaData.reportedProcessID,
            appBuild: diagnostic.metaData.applicationBuildVersion,
            exceptionType: diagnostic.exceptionType?.intValue,
            exceptionCode: diagnostic.exceptionCode?.intValue,
            signal: diagnostic.signal?.intValue,
            terminationReason: diagnostic.terminationReason,
            periodStart: periodStart?.timeIntervalSince1970,
            periodEnd: periodEnd?.timeIntervalSince1970
        )
    }

    /// The records of an `MXDiagnosticPayload`'s crash diagnostics, through its mirror.
    public static func records(in payload: some MetricKitDiagnosticPayloadMirror) -> [CrashDiagnosticRecord] {
        (payload.crashDiagnostics ?? []).map {
            CrashDiagnosticRecord($0, periodStart: payload.timeStampBegin, periodEnd: payload.timeStampEnd)
        }
    }

    /// The record of an iOS 27 `CrashDiagnostic` of the `taskTimeout` category (or of another one), for
    /// the app to fill in with the run's build and process id from the report it came with.
    ///
    /// - Parameters:
    ///   - category: The diagnostic's `terminationCategory`; `nil` when MetricKit could not tell.
    ///   - appBuild: The build the report names.
    ///   - processID: The process id the report names, if any.
    ///   - periodStart: The report's start, if any.
    ///   - periodEnd: The report's end, if any.
    public init<Category: TerminationCategoryMirror>(
        category: Category?, appBuild: String, processID: Int32?, periodStart: Date? = nil, periodEnd: Date? = nil
    ) {
        self.init(
            processID: processID, appBuild: appBuild, terminationReason: nil,
            terminationCategory: category.map { $0 == .taskTimeout ? "taskTimeout" : "other" },
            periodStart: periodStart?.timeIntervalSince1970, periodEnd: periodEnd?.timeIntervalSince1970
        )
    }
}
