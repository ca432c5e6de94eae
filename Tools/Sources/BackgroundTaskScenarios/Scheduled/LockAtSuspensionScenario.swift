import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// wire-ios PR #5020's shape: an expiration handler that cancels the async work and ends the background task at
    /// once, while the work still holds a file lock on its way out; the app is suspended holding it: `0xdead10cc`.
    static let lockAtSuspension = Scenario(
        id: "lock-at-suspension",
        summary: "The expiration handler cancels async work and ends at once; the work still holds a file lock.",
        variants: ["naive", "closure", "manager"].map { name in
            ScenarioVariant(name: name) { simulator in
                let started = ScheduledWork.Flag()
                simulator.enterBackground()
                let sync: Task<Void, Never>
                switch name {
                case "naive":
                    let box = IdentifierBox()
                    let work = Task.detached {
                        await ScheduledWork.holdingLock("Shared.sqlite", on: simulator, started: started)
                    }
                    box.value = simulator.beginBackgroundTask(named: "Sync") {
                        work.cancel()  // not awaited
                        if let identifier = box.value { simulator.endBackgroundTask(identifier) }
                    }
                    sync = work
                case "closure":
                    sync = Task.detached {
                        await withBackgroundTask("Sync", backend: simulator, windDownLimit: 2) {
                            await ScheduledWork.holdingLock("Shared.sqlite", on: simulator, started: started)
                        }
                    }
                default:
                    let manager = BackgroundTaskManager(
                        backend: simulator, configuration: BackgroundTaskManager.Configuration())
                    sync = Task.detached {
                        _ = try? await manager.withTask("Sync", windDownLimit: 2) {
                            await ScheduledWork.holdingLock("Shared.sqlite", on: simulator, started: started)
                        }
                    }
                }
                await ScheduledWork.waitUntil(started)
                simulator.advance(by: 60)
                await sync.value
            }
        }
    )
}
