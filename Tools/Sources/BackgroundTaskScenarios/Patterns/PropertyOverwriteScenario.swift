import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// The identifier lives in one property; a second begin overwrites it and
    /// the first assertion can never be ended.
    static let propertyOverwrite = Scenario(
        id: "property-overwrite",
        summary: "One property holds the identifier; a second export overwrites it and the first leaks.",
        naive: { simulator, backend in
            let exporter = NaivePhotoExporter(backend: backend)
            simulator.enterBackground()
            exporter.startExport("Export album 1")
            simulator.advance(by: 1)
            exporter.startExport("Export album 2")  // overwrites the first identifier
            simulator.advance(by: 3)
            exporter.exportFinished()  // ends the second task
            simulator.advance(by: 3)
            exporter.exportFinished()  // the property is empty: the first task is never ended
        },
        flow: { simulator, tasks in
            simulator.enterBackground()
            let first = await tasks.start("Export album 1")
            simulator.advance(by: 1)
            let second = await tasks.start("Export album 2")
            simulator.advance(by: 3)
            await second.end()
            simulator.advance(by: 3)
            await first.end()
        }
    )
}

/// Keeps one identifier for however many exports are running.
@MainActor
private final class NaivePhotoExporter {
    let backend: RawBackend
    var taskIdentifier: BackgroundTaskIdentifier?

    init(backend: RawBackend) {
        self.backend = backend
    }

    func startExport(_ name: String) {
        taskIdentifier = backend.beginBackgroundTask(named: name) { [self] in
            exportFinished()
        }
    }

    func exportFinished() {
        guard let taskIdentifier else { return }
        backend.endBackgroundTask(taskIdentifier)
        self.taskIdentifier = nil
    }
}
