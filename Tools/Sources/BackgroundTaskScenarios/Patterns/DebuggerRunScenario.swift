import BackgroundTaskKit
import BackgroundTaskSimulation

extension Scenario {
    /// The same leak as `early-return`, run under Xcode's debugger: the watchdog never kills the app,
    /// so the developer sees only iOS's console warnings, never the `0x8badf00d` their users get.
    static let debuggerRun = Scenario(
        id: "debugger-run",
        summary: "Under the debugger a leak only warns: the crash users get never shows at the desk.",
        configuration: {
            var configuration = SimulatorConfiguration()
            configuration.debuggerAttached = true
            return configuration
        }(),
        naive: { simulator, backend in
            simulator.enterBackground()
            // The handler cancels the export but forgets to end the task.
            _ = backend.beginBackgroundTask(named: "Export library") {}
            simulator.advance(by: 60)
        },
        flow: { simulator, tasks in
            simulator.enterBackground()
            let task = await tasks.start("Export library")  // the export outlasts the budget
            simulator.advance(by: 60)
            await task.end()
        }
    )
}
