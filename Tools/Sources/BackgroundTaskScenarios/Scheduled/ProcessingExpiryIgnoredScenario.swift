import BackgroundTaskKit
import BackgroundTaskScheduling
import BackgroundTaskSimulation

extension Scenario {
    /// A `BGProcessingTask` compacting a shared database: on expiry (the person picks up the device) its handler
    /// completes the task at once without stopping the work, which still holds the database's file lock when the
    /// app is suspended: `0xdead10cc`.
    static let processingExpiryIgnored = Scenario(
        id: "processing-expiry-ignored",
        summary: "A processing task's expiry completes the task without stopping the work, which holds a file lock.",
        variants: ["naive", "scheduler"].map { name in
            ScenarioVariant(name: name) { simulator in
                let identifier = "com.example.db.compact"
                let started = ScheduledWork.Flag()
                let stopped = ScheduledWork.Flag()
                if name == "naive" {
                    try? simulator.register(identifier: identifier) { task in
                        task.setExpirationHandler { task.setTaskCompleted(success: false) }  // the work goes on
                        Task.detached {
                            await ScheduledWork.holdingLock(
                                "Shared.sqlite", on: simulator, started: started, stop: stopped)
                            task.setTaskCompleted(success: true)
                        }
                    }
                } else {
                    let scheduler = SafeTaskScheduler(backend: simulator)
                    try? scheduler.register(identifier, windDownLimit: 2) {
                        await ScheduledWork.holdingLock("Shared.sqlite", on: simulator, started: started)
                    }
                }
                simulator.finishLaunching()
                try? simulator.submit(.processing(identifier))
                simulator.enterBackground()
                simulator.advance(by: 1)  // suspended until the device is idle
                simulator.runScheduledTask(identifier)
                await ScheduledWork.waitUntil(started)
                simulator.userStartsUsingDevice()
                simulator.advance(by: 60)
                stopped.set()
            }
        }
    )
}
