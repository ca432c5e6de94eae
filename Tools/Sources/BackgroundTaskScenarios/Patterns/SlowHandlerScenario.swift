import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// The handler budget: an expiration handler that does slow cleanup before ending its task
    /// overruns the few seconds all handlers get.
    static let slowHandler = Scenario(
        id: "slow-handler",
        summary: "The expiration handler spends 8 s closing a database before it ends the task.",
        naive: { simulator, backend in
            let box = IdentifierBox()
            simulator.enterBackground()
            box.value = backend.beginBackgroundTask(named: "Import photos") {
                simulator.spend(8)  // flushes and closes the database
                if let identifier = box.value { backend.endBackgroundTask(identifier) }
            }
            simulator.advance(by: 60)  // the import takes 60 s
        },
        flow: { simulator, tasks in
            let importer = CancellableWork()
            simulator.enterBackground()
            let task = await tasks.start("Import photos") {
                importer.cancel()
                simulator.spend(1)  // a quick checkpoint; the full close waits for the next launch
            }
            simulator.advance(by: 60)
            await task.end()
        }
    )
}
