import BackgroundTaskKit
import BackgroundTaskSimulation
import BackgroundTaskTracing

/// A third-party SDK (here an analytics one) that the app cannot change begins a task when the app
/// leaves the foreground and never ends it when time runs out. None of the package's faces can fix
/// code the app does not own; the tracer sees it, names it, and with rescue keeps the app alive.
enum LeakyAnalyticsSDK {
    /// Flushes queued events when the app leaves the foreground. Its expiration handler cancels the
    /// upload and forgets to end the task: the shape of many SDK leaks.
    @inline(never)
    static func flushOnEnteringBackground(_ application: SimulatedApplication) {
        // The SDK's leak, on purpose. bgtask:ignore BT001 BT003 BT008
        _ = application.beginBackgroundTask(withName: "Analytics flush") {
            // Cancels the upload; the task is never ended.
        }
    }
}

extension Scenario {
    /// The variants of ``thirdPartySDK``: the SDK's raw calls without a tracer, with the tracer
    /// watching, and with its rescue.
    static let thirdPartySDKVariants = ["naive", "traced", "traced-rescue"]

    /// A third-party SDK's leak: killed without the tracer's rescue, alive with it.
    static let thirdPartySDK = Scenario(
        id: "third-party-sdk",
        summary: "An SDK the app cannot change leaks its task; only the tracer's rescue keeps the app alive.",
        variants: thirdPartySDKVariants.map { name in
            ScenarioVariant(name: name) { simulator in
                let application = SimulatedApplication(simulator: simulator)
                if name != "naive" {
                    let configuration = BackgroundTaskTracer.Configuration(
                        rescuesHeldAssertions: name == "traced-rescue")
                    application.installTracer(BackgroundTaskTracer(configuration: configuration, clockOf: simulator))
                }
                simulator.enterBackground()
                LeakyAnalyticsSDK.flushOnEnteringBackground(application)
                simulator.advance(by: 60)
            }
        }
    )
}
