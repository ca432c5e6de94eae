import BackgroundTaskKit
import BackgroundTaskScheduling
import BackgroundTaskSimulation

extension Scenario {
    /// A `BGAppRefreshTask` handler whose error path never calls `setTaskCompleted`, and whose expiration handler
    /// only cancels: the system kills the app a few seconds after the expiry.
    static let refreshNeverCompletes = Scenario(
        id: "refresh-never-completes",
        summary: "A refresh task's error path never calls setTaskCompleted; its expiration handler only cancels.",
        variants: ["naive", "scheduler", "scheduler-callback"].map { name in
            ScenarioVariant(name: name) { simulator in
                let identifier = "com.example.feed.refresh"
                let feed = ScheduledWork.Flag()  // the fetch, cancelled on expiry
                switch name {
                case "naive":
                    try? simulator.register(identifier: identifier) { task in
                        task.setExpirationHandler { feed.set() }  // cancels, never completes
                        // The refresh failed (offline): returns without calling setTaskCompleted.
                    }
                case "scheduler":
                    let scheduler = SafeTaskScheduler(backend: simulator)
                    try? scheduler.register(identifier, onExpiration: { feed.set() }) {
                        throw FeedOffline()  // completed unsuccessfully, once
                    }
                default:
                    let scheduler = SafeTaskScheduler(backend: simulator)
                    try? scheduler.register(identifier, onExpiration: { feed.set() }) { task in
                        task.complete(success: false)  // the error path completes too
                    }
                }
                simulator.finishLaunching()
                try? simulator.submit(.appRefresh(identifier))
                simulator.enterBackground()
                simulator.advance(by: 1)  // suspended
                simulator.runScheduledTask(identifier)
                simulator.advance(by: 60)
            }
        }
    )
}

/// The feed could not be fetched.
private struct FeedOffline: Error {}
