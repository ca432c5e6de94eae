import BackgroundTaskKitTesting
import TestSupport
import Testing

/// The README's example, kept compiling and passing.
@MainActor
private final class DraftSaver {
    private let backend: any BackgroundTaskBackend
    private var saveTask: BackgroundTaskIdentifier?

    init(backend: any BackgroundTaskBackend) {
        self.backend = backend
    }

    func save(_ draft: String) {
        guard saveTask == nil else { return }  // one save at a time
        saveTask = backend.beginBackgroundTask(named: "Save draft") { [self] in
            finishSaving()  // time is up: end the task before returning
        }
        // … write the draft, then call finishSaving()
    }

    func finishSaving() {
        guard let identifier = saveTask else { return }
        saveTask = nil
        backend.endBackgroundTask(identifier)
    }
}

@MainActor
struct ReadmeExampleTests {
    @Test func savingADraftNeverLeaksItsBackgroundTask() throws {
        let simulator = BackgroundTaskSimulator()
        let saver = DraftSaver(backend: simulator)
        simulator.enterBackground()
        saver.save("Dear diary")
        simulator.advance(by: 60)  // the write never finishes: the expiration handler must end the task
        try simulator.expectNoLeaks()
        #expect(simulator.events.contains(.expirationHandlerCalled(id(1), onMainActor: true)))
    }
}
