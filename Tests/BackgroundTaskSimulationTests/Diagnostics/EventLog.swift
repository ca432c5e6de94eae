import BackgroundTaskKitTesting

/// Collects events from any thread.
final class EventLog: Sendable {
    private let events = Locked<[BackgroundTaskEvent]>([])

    var all: [BackgroundTaskEvent] { events.value }
    var kinds: [BackgroundTaskEvent.Kind] { all.map(\.kind) }
    var names: [String?] { all.map(\.name) }

    func record(_ event: BackgroundTaskEvent) {
        events.withLock { $0.append(event) }
    }
}

/// A unified-logging writer that writes nothing (for observers whose intervals alone are checked).
struct NullLogWriter: UnifiedLogWriting {
    func log(_ level: BackgroundTaskLogLevel, _ text: String, taskName: String?, privacy: BackgroundTaskLogPrivacy) {}
    func beginInterval(named taskName: String?, privacy: BackgroundTaskLogPrivacy) {}
    func emitEvent(_ event: BackgroundTaskSignpostEvent, in interval: Void) {}
    func endInterval(_ interval: Void, outcome: BackgroundTaskSignpostOutcome) {}
}
