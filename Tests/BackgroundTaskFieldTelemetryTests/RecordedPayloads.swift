import Foundation

/// MetricKit payloads in the shape of `jsonRepresentation()` (written for these tests after the keys and
/// formats of Apple's encoders: crash fields in `diagnosticMetaData`, `appBuildVersion`, `pid`, time
/// stamps `yyyy-MM-dd HH:mm:ss`, zero exit counts left out).
enum RecordedPayloads {
    /// A diagnostic payload of iOS 17 or later: a background-task kill of process 4100, build 42, with
    /// RunningBoard's background-task code, and an unrelated crash.
    static let watchdogDiagnostic = """
        {
          "timeStampBegin" : "2026-11-20 09:00:00",
          "timeStampEnd" : "2026-11-20 09:00:00",
          "crashDiagnostics" : [
            {
              "version" : "1.0.0",
              "callStackTree" : { "callStacks" : [], "callStackPerThread" : true },
              "diagnosticMetaData" : {
                "appBuildVersion" : "42", "appVersion" : "1.0", "bundleIdentifier" : "com.example.app",
                "deviceType" : "iPhone15,2", "osVersion" : "iPhone OS 18.1 (22B83)", "platformArchitecture" : "arm64",
                "regionFormat" : "US", "isTestFlightApp" : false, "lowPowerModeEnabled" : false,
                "pid" : 4100, "exceptionType" : 10, "exceptionCode" : 0, "signal" : 9,
                "terminationReason" : "Namespace RUNNINGBOARD, Code 0x2182bad2"
              }
            },
            {
              "version" : "1.0.0",
              "callStackTree" : { "callStacks" : [], "callStackPerThread" : true },
              "diagnosticMetaData" : {
                "appBuildVersion" : "42", "appVersion" : "1.0", "osVersion" : "iPhone OS 18.1 (22B83)",
                "pid" : 4101, "exceptionType" : 1, "exceptionCode" : 1, "signal" : 11,
                "terminationReason" : "Namespace SIGNAL, Code 0xb"
              }
            }
          ]
        }
        """

    /// An older diagnostic payload (before iOS 17: no `pid`; time stamps with an offset) of a watchdog
    /// termination of build `build` during the given period.
    static func olderWatchdogDiagnostic(build: String, from start: Date, to end: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return """
            {
              "timeStampBegin" : "\(formatter.string(from: start))",
              "timeStampEnd" : "\(formatter.string(from: end))",
              "crashDiagnostics" : [ {
                "version" : "1.0.0",
                "callStackTree" : { "callStacks" : [], "callStackPerThread" : true },
                "diagnosticMetaData" : {
                  "appBuildVersion" : "\(build)", "appVersion" : "1.0", "osVersion" : "iPhone OS 16.7 (20H19)",
                  "exceptionType" : 10, "exceptionCode" : 0, "signal" : 9,
                  "terminationReason" : "Namespace ASSERTIOND, Code 0x8badf00d"
                }
              } ]
            }
            """
    }

    /// A day's metric payload with two background-task timeouts and three normal exits; the other
    /// counts are zero and left out.
    static let metricPayload = """
        {
          "appVersion" : "1.0",
          "timeStampBegin" : "2026-11-19 00:00:00",
          "timeStampEnd" : "2026-11-19 23:59:00",
          "metaData" : { "appBuildVersion" : "42", "osVersion" : "iPhone OS 18.1 (22B83)", "deviceType" : "iPhone15,2" },
          "applicationExitMetrics" : {
            "foregroundExitData" : { "cumulativeNormalAppExitCount" : 4 },
            "backgroundExitData" : {
              "cumulativeBackgroundTaskAssertionTimeoutExitCount" : 2,
              "cumulativeNormalAppExitCount" : 3,
              "cumulativeMemoryPressureExitCount" : 1
            }
          }
        }
        """
}
