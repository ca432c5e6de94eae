import BackgroundTaskKit
import BackgroundTaskSimulation
import Dispatch

extension Scenario {
    /// The handler ends the task later (an async dispatch), after it has
    /// returned, which is too late.
    static let lateEnd = Scenario(
        id: "late-end",
        summary: "The expiration handler ends the task asynchronously, after the handlers are over.",
        naive: { simulator, backend in
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
        flow: { simulator, tasks in
            let refresh = CancellableWork()
            simulator.enterBackground()
            let task = await tasks.start("Refresh feed") { refresh.cancel() }
            simulator.advance(by: 40)
            await task.end()
        }
    )
}
