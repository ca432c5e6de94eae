import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// PLATFORM-FACTS §3.5: the handler captures the identifier before it is assigned (Swift's
    /// capture list, like an Objective-C block without `__block`), so it ends nothing.
    static let captureBeforeAssignment = Scenario(
        id: "capture-before-assignment",
        summary: "The handler captured the identifier's value before begin returned it.",
        variants: [
            ScenarioVariant(name: ScenarioVariant.naive) { simulator in
                let backend: any BackgroundTaskBackend = simulator
                simulator.enterBackground()
                var identifier: BackgroundTaskIdentifier? = nil
                identifier = backend.beginBackgroundTask(named: "Sync contacts") { [identifier] in
                    if let identifier { backend.endBackgroundTask(identifier) }  // always nil here
                }
                simulator.advance(by: 45)  // the sync takes 45 s
                if let identifier { backend.endBackgroundTask(identifier) }
            },
            ScenarioVariant(name: ScenarioVariant.correct) { simulator in
                let backend: any BackgroundTaskBackend = simulator
                let box = IdentifierBox()
                simulator.enterBackground()
                box.value = backend.beginBackgroundTask(named: "Sync contacts") {
                    if let identifier = box.value {  // read when the handler runs
                        box.value = nil
                        backend.endBackgroundTask(identifier)
                    }
                }
                simulator.advance(by: 45)
                if let identifier = box.value {
                    box.value = nil
                    backend.endBackgroundTask(identifier)
                }
            },
        ]
    )
}
