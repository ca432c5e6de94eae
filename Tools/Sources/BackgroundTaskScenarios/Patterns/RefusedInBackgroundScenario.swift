import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// wire-ios PRs #4935/#4945's shape: out of background time (the expiry has begun), an upload's expiry saves its
    /// progress under a new background task and takes its database lock. The begin is refused (no time is left to
    /// lend) and no handler will come; the upload ends, and the app is suspended holding the lock: `0xdead10cc`. The
    /// faces say so before the lock is taken: `SafeBackgroundTask`'s state is `.notGranted`, and the async
    /// `withBackgroundTask` starts its body cancelled.
    static let refusedInBackground = Scenario(
        id: "refused-in-background",
        summary: "On expiry, the upload saves its progress under a new background task, which iOS refuses.",
        variants: ["naive", "safe", "closure"].map { name in
            ScenarioVariant(name: name) { simulator in
                simulator.enterBackground()
                switch name {
                case "naive":
                    let upload = IdentifierBox()
                    upload.value = simulator.beginBackgroundTask(named: "Upload") {
                        // Refused, and not checked: the save takes its lock anyway and writes for 2 s.
                        _ = simulator.beginBackgroundTask(named: "Save progress", expirationHandler: nil)
                        let lock = simulator.takeFileLock("Uploads.sqlite")
                        simulator.schedule(after: 2) { lock.release() }
                        if let identifier = upload.value { simulator.endBackgroundTask(identifier) }
                    }
                    simulator.advance(by: 60)
                case "safe":
                    let upload = SafeBackgroundTask.begin("Upload", backend: simulator) {
                        let save = SafeBackgroundTask.begin("Save progress", backend: simulator)
                        guard save.state == .running else { return }  // refused: save on the next launch
                        let lock = simulator.takeFileLock("Uploads.sqlite")
                        simulator.schedule(after: 2) {
                            lock.release()
                            save.end()
                        }
                    }
                    simulator.advance(by: 60)
                    upload.end()
                default:
                    let started = ScheduledWork.Flag()
                    let upload = Task.detached {
                        await withBackgroundTask("Upload", backend: simulator, windDownLimit: 2) {
                            started.set()
                            while !Task.isCancelled { await ScheduledWork.pause(milliseconds: 1) }
                            // Cancelled by the expiry: save the progress, under a task of its own.
                            await withBackgroundTask("Save progress", backend: simulator) {
                                guard !Task.isCancelled else { return }  // refused: save on the next launch
                                let lock = simulator.takeFileLock("Uploads.sqlite")
                                await ScheduledWork.pause(milliseconds: 20)
                                lock.release()
                            }
                        }
                    }
                    await ScheduledWork.waitUntil(started)
                    simulator.advance(by: 60)
                    await upload.value
                }
            }
        }
    )
}
