import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// PLATFORM-FACTS §3.2: no expiration handler, so nothing ends the task when time runs out.
    static let missingHandler = Scenario(
        id: "missing-handler",
        summary: "The task is begun without an expiration handler and its work outlasts the budget.",
        variants: [
            ScenarioVariant(name: ScenarioVariant.naive) { simulator in
                let backend: any BackgroundTaskBackend = simulator
                simulator.enterBackground()
                let identifier = backend.beginBackgroundTask(named: "Upload log", expirationHandler: nil)
                simulator.advance(by: 45)  // the upload takes 45 s
                if let identifier { backend.endBackgroundTask(identifier) }
            },
            ScenarioVariant(name: ScenarioVariant.correct) { simulator in
                let upload = CancellableWork()
                simulator.enterBackground()
                let task = HandWrittenTask("Upload log", backend: simulator) { upload.cancel() }
                simulator.advance(by: 45)
                task.end()  // already ended by the handler: does nothing
            },
        ]
    )
}

/// Stands for work the expiration handler can cancel.
@MainActor
final class CancellableWork {
    private(set) var isCancelled = false

    func cancel() {
        isCancelled = true
    }
}
