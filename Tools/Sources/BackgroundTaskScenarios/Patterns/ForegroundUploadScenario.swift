import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// Background time held from the start: an upload begun in the foreground that takes 45 s keeps
    /// an assertion for all of it, and iOS prints its "created over 30 seconds ago" warning while the
    /// app is still in the foreground. Every face that raises its assertion at begin does the same; a
    /// manager that holds its assertion only in the background does not.
    static let foregroundUpload = Scenario(
        id: "foreground-upload",
        summary: "An upload begun in the foreground takes 45 s; the user leaves only at the end.",
        naive: { simulator, backend in
            let box = IdentifierBox()
            box.value = backend.beginBackgroundTask(named: "Upload video") {
                if let identifier = box.value { backend.endBackgroundTask(identifier) }
            }
            simulator.advance(by: 45)  // the upload runs in the foreground
            simulator.enterBackground()
            simulator.advance(by: 2)  // and finishes just after the user leaves
            if let identifier = box.value { backend.endBackgroundTask(identifier) }
        },
        flow: { simulator, tasks in
            let uploader = CancellableWork()
            let task = await tasks.start("Upload video") { uploader.cancel() }
            simulator.advance(by: 45)
            simulator.enterBackground()
            simulator.advance(by: 2)
            await task.end()
        }
    )
}
