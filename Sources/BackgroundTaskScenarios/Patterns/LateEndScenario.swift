import BackgroundTaskKit
import BackgroundTaskSimulation
import Dispatch

extension Scenario {
    /// PLATFORM-FACTS §3.3: the handler ends the task later (an async dispatch), after it has
    /// returned, which is too late.
    static let lateEnd = Scenario(
        id: "late-end",
        summary: "The expiration handler ends the task asynchronously, after the handlers are over.",
        variants: [
            ScenarioVariant(name: ScenarioVariant.naive) { simulator in
                let backend: any BackgroundTaskBackend = simulator
                let box = IdentifierBox()
                simulator.enterBackground()
                box.value = backend.beginBackgroundTask(named: "Refresh feed") {
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated {
                            if let identifier = box.value { backend.endBackgroundTask(identifier) }
                        }
                    }
                }
                simulator.advance(by: 40)  // the refresh takes 40 s
            },
            ScenarioVariant(name: ScenarioVariant.correct) { simulator in
                let refresh = CancellableWork()
                simulator.enterBackground()
                let task = HandWrittenTask("Refresh feed", backend: simulator) { refresh.cancel() }
                simulator.advance(by: 40)
                task.end()
            },
        ]
    )
}
