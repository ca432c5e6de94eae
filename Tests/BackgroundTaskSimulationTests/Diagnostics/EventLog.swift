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
