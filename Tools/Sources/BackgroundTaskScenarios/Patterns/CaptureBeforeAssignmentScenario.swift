import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// The handler captures the identifier before it is assigned (Swift's
    /// capture list, like an Objective-C block without `__block`), so it ends nothing.
    static let captureBeforeAssignment = Scenario(
        id: "capture-before-assignment",
        summary: "The handler captured the identifier's value before begin returned it.",
        naive: { simulator, backend in
            simulator.enterBackground()
            var identifier: BackgroundTaskIdentifier? = nil
            identifier = backend.beginBackgroundTask(named: "Sync contacts") { [identifier] in
                if let identifier { backend.endBackgroundTask(identifier) }  // always nil here
            }
            simulator.advance(by: 45)  // the sync takes 45 s
            if let identifier { backend.endBackgroundTask(identifier) }
        },
        flow: { simulator, tasks in
            let sync = CancellableWork()
            simulator.enterBackground()
            let task = await tasks.start("Sync contacts") { sync.cancel() }
            simulator.advance(by: 45)
            await task.end()
        }
    )
}
