import BackgroundTaskKit
import Foundation

/// One MetricKit crash diagnostic, reduced to what ties it to a background-task termination: the
/// process, the build, the exception and termination reason, and the payload's time range.
///
/// Made from `MXCrashDiagnostic` through its mirror (`init(_:periodStart:periodEnd:)`), or from the
/// JSON of a payload an app saved (``MetricKitJSON/crashDiagnostics(in:)``).
public struct CrashDiagnosticRecord: Codable, Equatable, Sendable {
    /// What the diagnostic says the app was terminated for, from the code in its termination reason
    /// (`Namespace RUNNINGBOARD, Code 0x2182bad2`; newer reports may print the code in decimal).
    public enum Kind: String, Codable, Sendable {
        /// `0x2182bad2` (RunningBoard): "a background task failing to complete in time".
        case backgroundTaskTimeout
        /// `0x8badf00d`: the watchdog; older iOS versions terminate an app holding an assertion past its
        /// time with this code ("has active assertions beyond permitted time").
        case watchdog
        /// `0xbada5e47`: more assertions held at once than the system allows (about 1000).
        case tooManyAssertions
        /// Anything else.
        case other

        /// Whether this kind can be a background-task termination.
        public var concernsBackgroundTasks: Bool { self != .other }
    }

    /// The process id (`MXMetaData.pid`, iOS 17 and later); `nil` when unknown (MetricKit's −1).
    public var processID: Int32?
    /// `MXMetaData.applicationBuildVersion`.
    public var appBuild: String
    /// `MXCrashDiagnostic.exceptionType` (Mach exception type).
    public var exceptionType: Int?
    /// `MXCrashDiagnostic.exceptionCode`.
    public var exceptionCode: Int?
    /// `MXCrashDiagnostic.signal`.
    public var signal: Int?
    /// `MXCrashDiagnostic.terminationReason`.
    public var terminationReason: String?
    /// iOS 27's `CrashDiagnostic.terminationCategory`, when the record came from one: `"taskTimeout"`
    /// for a background-task timeout.
    public var terminationCategory: String?
    /// The payload's `timeStampBegin`, seconds since 1970.
    public var periodStart: TimeInterval?
    /// The payload's `timeStampEnd`, seconds since 1970.
    public var periodEnd: TimeInterval?

    /// Creates a record.
    public init(
        processID: Int32?, appBuild: String, exceptionType: Int? = nil, exceptionCode: Int? = nil,
        signal: Int? = nil, terminationReason: String?, terminationCategory: String? = nil,
        periodStart: TimeInterval? = nil, periodEnd: TimeInterval? = nil
    ) {
        self.terminationCategory = terminationCategory
        self.processID = processID.flatMap { $0 > 0 ? $0 : nil }
        self.appBuild = appBuild
        self.exceptionType = exceptionType
        self.exceptionCode = exceptionCode
        self.signal = signal
        self.terminationReason = terminationReason
        self.periodStart = periodStart
        self.periodEnd = periodEnd
    }

    /// What the app was terminated for: the code in the exception code or the termination reason,
    /// in hexadecimal or decimal.
    public var kind: Kind {
        if terminationCategory == "taskTimeout" { return .backgroundTaskTimeout }
        let reason = terminationReason?.lowercased() ?? ""
        for (code, kind) in Self.codes {
            if exceptionCode == Int(code) || reason.contains(String(code, radix: 16)) || reason.contains(String(code)) {
                return kind
            }
        }
        return .other
    }

    private static let codes: [(UInt32, Kind)] = [
        (0x2182_bad2, .backgroundTaskTimeout), (0x8bad_f00d, .watchdog), (0xbada_5e47, .tooManyAssertions),
    ]
}
