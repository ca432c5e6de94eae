import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// No expiration handler, so nothing ends the task when time runs out.
    static let missingHandler = Scenario(
        id: "missing-handler",
        summary: "The task is begun without an expiration handler and its work outlasts the budget.",
        naive: { simulator, backend in
            simulator.enterBackground()
            let identifier = backend.beginBackgroundTask(named: "Upload log", expirationHandler: nil)
            simulator.advance(by: 45)  // the upload takes 45 s
            if let identifier { backend.endBackgroundTask(identifier) }
        },
        flow: { simulator, tasks in
            let upload = CancellableWork()
            simulator.enterBackground()
            let task = await tasks.start("Upload log") { upload.cancel() }
            simulator.advance(by: 45)
            await task.end()  // already ended on expiry: does nothing
        }
    )
}

/// Stands for work the expiration handler can cancel.
@MainActor
final class CancellableWork {
    private(set) var isCancelled = false

    func cancel() {
        isCancelled = true
    }
}
