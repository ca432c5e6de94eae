// Apple-only: MetricKit's types conform to the mirrors the field telemetry reads. Empty, apart from
// the one accessor for `pid` (iOS 17 / macOS 14). Listed in Documentation/AppleOnlyCode.md. MetricKit
// has no tvOS or watchOS, and no exit metrics on macOS.

#if canImport(MetricKit) && !os(tvOS) && !os(watchOS)
    import MetricKit

    extension MXMetaData: MetricKitMetaDataMirror {
        /// `pid` where the system reports it (iOS 17, macOS 14 and later; MetricKit's −1 is `nil`).
        public var reportedProcessID: Int32? {
            if #available(iOS 17.0, macOS 14.0, *) { pid > 0 ? pid : nil } else { nil }
        }
    }

    extension MXCrashDiagnostic: MetricKitCrashDiagnosticMirror {}
    extension MXDiagnosticPayload: MetricKitDiagnosticPayloadMirror {}
    #if !os(macOS)
        // App exit metrics are not offered on macOS.
        extension MXBackgroundExitData: MetricKitBackgroundExitDataMirror {}
    #endif
#endif
