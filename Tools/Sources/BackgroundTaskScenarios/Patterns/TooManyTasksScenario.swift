import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// One assertion per cache operation; a burst crosses the system's limit.
    static let tooManyTasks = Scenario(
        id: "too-many-tasks",
        summary: "Every cache write begins its own task; 1,001 queued writes cross the assertion limit.",
        naive: { simulator, backend in
            let writes = (1...1001).map { index in
                HandWrittenTask("Cache write \(index)", backend: backend)
            }
            simulator.advance(by: 2)  // the disk queue drains
            for write in writes { write.end() }
        },
        flow: { simulator, tasks in
            let batch = await tasks.start("Cache writes")  // one task for the burst
            simulator.advance(by: 2)
            await batch.end()
        }
    )
}
