import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import Testing

/// A main-actor observer in a synchronous test: `waitForObservers()` delivers its events before the test looks,
/// although the test holds the main actor (their usual delivery is a block on the main queue).
@MainActor
struct MainActorObserverTests {
    final class TaskLog: MainActorBackgroundTaskObserver {
        var lines: [String] = []

        func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
            lines.append("\(event.kind) \(event.name ?? "")")
        }
    }

    @Test func aSynchronousTestSeesAManagersEventsAfterWaitingForObservers() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator, diagnostics: .init(staleTaskAge: nil))
        let log = TaskLog()
        let diagnostics = try #require(manager.diagnostics)
        diagnostics.addObserver(log)
        try manager.beginTask("Upload").end()
        diagnostics.waitForObservers()
        #expect(log.lines == ["began Upload", "ended Upload"])
        try manager.beginTask("Sync").end()
        diagnostics.waitForObservers()
        #expect(log.lines == ["began Upload", "ended Upload", "began Sync", "ended Sync"])
    }

    @Test func aSynchronousTestSeesADiagnosingBackendsEventsAfterWaitingForObservers() {
        let simulator = BackgroundTaskSimulator()
        let backend = DiagnosingBackend(wrapping: simulator, configuration: .init(staleTaskAge: nil))
        let log = TaskLog()
        backend.addObserver(log)
        SafeBackgroundTask.begin("Save", backend: backend).end()
        backend.waitForObservers()
        #expect(log.lines == ["began Save", "ended Save"])
    }
}
