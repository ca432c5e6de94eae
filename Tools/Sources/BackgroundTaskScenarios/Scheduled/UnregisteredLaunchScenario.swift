import BackgroundTaskScheduling
import BackgroundTaskSimulation

extension Scenario {
    /// A refresh is submitted when the app enters the background, but its launch handler is registered only in code
    /// that did not run in this launch (a scene callback, a plugin set up later): when the system launches the app for
    /// it, the framework raises an exception and the app is killed (flutter_workmanager #660).
    static let unregisteredLaunch = Scenario(
        id: "unregistered-launch",
        summary: "A refresh is submitted, but its launch handler was registered only in code that did not run in "
            + "this launch.",
        variants: ["naive", "scheduler"].map { name in
            ScenarioVariant(name: name) { simulator in
                let identifier = "com.example.feed.refresh"
                simulator.finishLaunching()
                let submitted: Bool
                switch name {
                case "naive":
                    submitted = (try? simulator.submit(.appRefresh(identifier))) != nil
                default:
                    // Refused with TaskSchedulingError.notRegistered: nothing is pending, nothing is launched.
                    submitted = (try? SafeTaskScheduler(backend: simulator).submit(.appRefresh(identifier))) != nil
                }
                simulator.enterBackground()
                simulator.advance(by: 1)  // suspended
                if submitted { simulator.runScheduledTask(identifier) }
                simulator.advance(by: 60)
            }
        }
    )
}
