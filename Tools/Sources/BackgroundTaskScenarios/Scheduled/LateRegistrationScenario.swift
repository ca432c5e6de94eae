import BackgroundTaskScheduling
import BackgroundTaskSimulation

extension Scenario {
    /// A refresh's launch handler is registered from a late scene-lifecycle hook, after the app finished launching
    /// (flutter_background_fetch #414, iOS 26.3.1): the framework raises an exception and the app is killed at once.
    static let lateRegistration = Scenario(
        id: "late-registration",
        summary: "A refresh's launch handler is registered from a scene callback, after the app finished launching.",
        variants: ["naive", "scheduler"].map { name in
            ScenarioVariant(name: name) { simulator in
                let identifier = "com.example.feed.refresh"
                simulator.finishLaunching()
                simulator.advance(by: 1)  // the first scene connects
                switch name {
                case "naive":
                    try? simulator.register(identifier: identifier) { task in task.setTaskCompleted(success: true) }
                default:
                    // Refused with TaskSchedulingError.registeredAfterLaunch: the app goes on; register in
                    // application(_:didFinishLaunchingWithOptions:) instead.
                    try? SafeTaskScheduler(backend: simulator).register(identifier) {}
                }
                simulator.enterBackground()
                simulator.advance(by: 60)
            }
        }
    )
}
