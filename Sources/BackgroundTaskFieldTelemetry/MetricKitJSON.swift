import BackgroundTaskKit
import Foundation

/// Reads MetricKit payloads an app saved as JSON (`MXDiagnosticPayload.jsonRepresentation()`,
/// `MXMetricPayload.jsonRepresentation()`): for tests, for `bgtask report`, and for apps that forward
/// payloads to a server and match there.
///
/// The shapes, from Apple's encoders: a diagnostic payload has `timeStampBegin`, `timeStampEnd` and
/// `crashDiagnostics`, each with its fields in `diagnosticMetaData` (`appBuildVersion`, `pid`,
/// `exceptionType`, `exceptionCode`, `signal`, `terminationReason`); a metric payload has `metaData`
/// and `applicationExitMetrics.backgroundExitData`, whose zero counts are left out. Time stamps are
/// `yyyy-MM-dd HH:mm:ss`, with a `+0000`-style offset on older systems; without one they are read in
/// the current time zone (the device's, when the app reads its own payload).
public enum MetricKitJSON {
    /// Why a payload could not be read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// The data is not JSON.
        case notJSON
        /// The JSON is not a payload, or an array of payloads, of the kind asked for.
        case notAPayload(String)

        /// What went wrong, in a sentence.
        public var description: String {
            switch self {
            case .notJSON: "not JSON"
            case .notAPayload(let detail): "not a MetricKit payload: \(detail)"
            }
        }
    }

    /// The crash diagnostics of one diagnostic payload, or of an array of them.
    public static func crashDiagnostics(in data: Data) throws(ReadError) -> [CrashDiagnosticRecord] {
        let payloads = try payloadObjects(in: data)
        guard payloads.contains(where: { $0["crashDiagnostics"] != nil || $0["timeStampBegin"] != nil }) else {
            throw .notAPayload("no crashDiagnostics or timeStampBegin")
        }
        return payloads.flatMap { payload -> [CrashDiagnosticRecord] in
            let start = date(payload["timeStampBegin"])
            let end = date(payload["timeStampEnd"])
            let diagnostics = payload["crashDiagnostics"] as? [[String: Any]] ?? []
            return diagnostics.map { diagnostic in
                let meta = diagnostic["diagnosticMetaData"] as? [String: Any] ?? diagnostic
                return CrashDiagnosticRecord(
                    processID: integer(meta["pid"]).map { Int32(clamping: $0) },
                    appBuild: meta["appBuildVersion"] as? String ?? "",
                    exceptionType: integer(meta["exceptionType"]),
                    exceptionCode: integer(meta["exceptionCode"]),
                    signal: integer(meta["signal"]),
                    terminationReason: meta["terminationReason"] as? String,
                    periodStart: start, periodEnd: end
                )
            }
        }
    }

    /// The background exit counts of one metric payload, or of an array of them (payloads without
    /// exit metrics are skipped).
    public static func backgroundExitCounts(in data: Data) throws(ReadError) -> [BackgroundExitCounts] {
        let payloads = try payloadObjects(in: data)
        return payloads.compactMap { payload in
            guard let exits = payload["applicationExitMetrics"] as? [String: Any] else { return nil }
            let background = exits["backgroundExitData"] as? [String: Any] ?? [:]
            func count(_ key: String) -> Int { integer(background["cumulative\(key)ExitCount"]) ?? 0 }
            let other = [
                "MemoryResourceLimit", "CPUResourceLimit", "MemoryPressure", "BadAccess", "Abnormal",
                "IllegalInstruction", "SuspendedWithLockedFile",
            ].map(count).reduce(0, +)
            let meta = payload["metaData"] as? [String: Any]
            return BackgroundExitCounts(
                backgroundTaskAssertionTimeout: count("BackgroundTaskAssertionTimeout"),
                appWatchdog: count("AppWatchdog"), normal: count("NormalApp"), other: other,
                appBuild: meta?["appBuildVersion"] as? String,
                periodStart: date(payload["timeStampBegin"]), periodEnd: date(payload["timeStampEnd"])
            )
        }
    }

    private static func payloadObjects(in data: Data) throws(ReadError) -> [[String: Any]] {
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw .notJSON }
        if let payload = object as? [String: Any] { return [payload] }
        if let payloads = object as? [[String: Any]] { return payloads }
        throw .notAPayload("neither an object nor an array of objects")
    }

    private static func integer(_ value: Any?) -> Int? {
        if let number = value as? NSNumber { return number.intValue }
        if let text = value as? String { return Int(text) }
        return nil
    }

    private static func date(_ value: Any?) -> TimeInterval? {
        guard let text = value as? String else { return nil }
        for format in ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
