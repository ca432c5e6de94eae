import BackgroundTaskKit
import BackgroundTaskScheduling
import BackgroundTaskSimulation

extension Scenario {
    /// A person-started export as a continued-processing task (iOS 26) that never reports progress: the system takes
    /// it for stalled and expires it, and the export is lost.
    static let continuedStall = Scenario(
        id: "continued-stall",
        summary: "A continued-processing export never reports progress; the system expires it as stalled.",
        variants: ["naive", "continued"].map { name in
            ScenarioVariant(name: name) { simulator in
                let identifier = "com.example.app.export.1"
                if name == "naive" {
                    let done = ScheduledWork.Flag()
                    try? simulator.registerContinuedProcessing(identifier: identifier) { task in
                        task.setExpirationHandler { task.setTaskCompleted(success: false) }
                        Task { @MainActor in
                            for _ in 0..<12 { simulator.advance(by: 10) }  // two minutes of encoding, no progress
                            task.setTaskCompleted(success: true)
                            done.set()
                        }
                    }
                    try? simulator.submitContinuedProcessing(
                        ContinuedProcessingRequest(identifier: identifier, title: "Exporting", subtitle: "Holiday"))
                    await ScheduledWork.waitUntil(done)
                } else {
                    let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
                    let request = ContinuedProcessingRequest(
                        identifier: identifier, title: "Exporting", subtitle: "Holiday")
                    try? await scheduler.runContinuedProcessing(request) { progress in
                        for step in 1...12 {
                            simulator.advance(by: 10)
                            progress.update(completed: Int64(step), of: 12)
                        }
                    }
                }
            }
        },
        configuration: {
            var configuration = SimulatorConfiguration()
            configuration.permittedTaskIdentifiers = ["com.example.app.export.*"]
            return configuration
        }()
    )
}
