import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting

/// A unified-logging writer that writes nothing (for observers whose intervals alone are checked).
struct NullLogWriter: UnifiedLogWriting {
    func log(_ level: BackgroundTaskLogLevel, _ text: String, taskName: String?, privacy: BackgroundTaskLogPrivacy) {}
    func beginInterval(named taskName: String?, privacy: BackgroundTaskLogPrivacy) {}
    func emitEvent(_ event: BackgroundTaskSignpostEvent, in interval: Void) {}
    func endInterval(_ interval: Void, outcome: BackgroundTaskSignpostOutcome) {}
}
