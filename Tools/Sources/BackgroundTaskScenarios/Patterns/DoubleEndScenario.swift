import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// The handler and the completion both end the identifier and neither
    /// resets it. The stale end hits somebody else's newer task, the newer task is ended twice, and
    /// the older one is left running.
    static let doubleEnd = Scenario(
        id: "double-end",
        summary: "Handler and completion both end a shared identifier: a double end, and a leak.",
        naive: { simulator, backend in
            let engine = NaiveSyncEngine(backend: backend)
            simulator.enterBackground()
            engine.startJob("Sync contacts")
            simulator.advance(by: 1)
            engine.startJob("Sync photos")
            simulator.advance(by: 2)
            engine.jobFinished()  // contacts done: ends the photos task
            simulator.advance(by: 2)
            engine.jobFinished()  // photos done: ends the photos task again
        },
        flow: { simulator, tasks in
            simulator.enterBackground()
            let contacts = await tasks.start("Sync contacts")
            simulator.advance(by: 1)
            let photos = await tasks.start("Sync photos")
            simulator.advance(by: 2)
            await contacts.end()
            simulator.advance(by: 2)
            await photos.end()
            await photos.end()  // a second completion callback is harmless
        }
    )
}

/// Ends its one stored identifier from both the handler and the completion, never resetting it.
@MainActor
private final class NaiveSyncEngine {
    let backend: RawBackend
    var taskIdentifier: BackgroundTaskIdentifier?

    init(backend: RawBackend) {
        self.backend = backend
    }

    func startJob(_ name: String) {
        taskIdentifier = backend.beginBackgroundTask(named: name) { [self] in
            if let taskIdentifier { backend.endBackgroundTask(taskIdentifier) }
        }
    }

    func jobFinished() {
        if let taskIdentifier { backend.endBackgroundTask(taskIdentifier) }
    }
}
