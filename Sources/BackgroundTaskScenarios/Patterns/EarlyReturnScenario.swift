import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// PLATFORM-FACTS §3.4: an early return skips the end; the handler only cancels the work and
    /// relies on the completion path to end the task.
    static let earlyReturn = Scenario(
        id: "early-return",
        summary: "A guard returns early between begin and end, and the handler does not end the task.",
        variants: [
            ScenarioVariant(name: ScenarioVariant.naive) { simulator in
                let backend: any BackgroundTaskBackend = simulator
                let save = CancellableWork()
                simulator.enterBackground()
                let changes: [String] = []
                let identifier = backend.beginBackgroundTask(named: "Save changes") { save.cancel() }
                guard !changes.isEmpty else { return }  // nothing to save: returns without ending
                simulator.advance(by: 2)
                if let identifier { backend.endBackgroundTask(identifier) }
            },
            ScenarioVariant(name: ScenarioVariant.correct) { simulator in
                let save = CancellableWork()
                simulator.enterBackground()
                let changes: [String] = []
                let task = HandWrittenTask("Save changes", backend: simulator) { save.cancel() }
                defer { task.end() }
                guard !changes.isEmpty else { return }
                simulator.advance(by: 2)
            },
        ]
    )
}
