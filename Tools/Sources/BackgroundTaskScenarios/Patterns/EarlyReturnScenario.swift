import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// An early return skips the end; the handler only cancels the work and
    /// relies on the completion path to end the task.
    static let earlyReturn = Scenario(
        id: "early-return",
        summary: "A guard returns early between begin and end, and the handler does not end the task.",
        naive: { simulator, backend in
            let save = CancellableWork()
            simulator.enterBackground()
            let changes: [String] = []
            let identifier = backend.beginBackgroundTask(named: "Save changes") { save.cancel() }
            guard !changes.isEmpty else { return }  // nothing to save: returns without ending
            simulator.advance(by: 2)
            if let identifier { backend.endBackgroundTask(identifier) }
        },
        flow: { simulator, tasks in
            let save = CancellableWork()
            simulator.enterBackground()
            let changes: [String] = []
            let task = await tasks.start("Save changes") { save.cancel() }
            guard !changes.isEmpty else {
                await task.end()  // every way out ends the task
                return
            }
            simulator.advance(by: 2)
            await task.end()
        }
    )
}
