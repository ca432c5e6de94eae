import BackgroundTaskSimulation
import Foundation

/// Runs scenario variants on fresh simulators.
public enum ScenarioRunner {
    /// Virtual time the runner lets pass after a variant's body, so that every expiry and
    /// termination the flow leads to happens.
    public static let settlingTime: TimeInterval = 120

    /// Runs one variant on a new simulator and lets the clock settle.
    ///
    /// A flow that ends in the foreground still holding an assertion is then sent to the background
    /// (the user leaves the app sooner or later) and settled again, so a leak shows as the
    /// termination it leads to on a device.
    ///
    /// - Parameters:
    ///   - variant: The variant to run.
    ///   - scenario: The scenario it belongs to.
    ///   - configuration: The simulated policy; the scenario's unless given.
    /// - Returns: The result and the simulator, whose log tells the whole story.
    @MainActor
    public static func run(
        _ variant: ScenarioVariant,
        of scenario: Scenario,
        configuration: SimulatorConfiguration? = nil
    ) async -> (result: ScenarioResult, simulator: BackgroundTaskSimulator) {
        let simulator = BackgroundTaskSimulator(
            configuration: configuration ?? scenario.configuration, faults: scenario.faults)
        await variant.body(simulator)
        settle(simulator)
        return (result(of: simulator, scenario: scenario.id, variant: variant.name), simulator)
    }

    /// Lets the clock settle after a flow; a flow that ends in the foreground still holding an
    /// assertion is then sent to the background and settled again.
    @MainActor
    static func settle(_ simulator: BackgroundTaskSimulator) {
        simulator.advance(by: settlingTime)
        if simulator.appState == .foreground, !simulator.outstanding.isEmpty {
            simulator.enterBackground()
            simulator.advance(by: settlingTime)
        }
    }

    /// Runs every variant of every scenario, in catalog order.
    @MainActor
    public static func runAll(_ scenarios: [Scenario] = ScenarioCatalog.all) async -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        for scenario in scenarios {
            for variant in scenario.variants {
                results.append(await run(variant, of: scenario).result)
            }
        }
        return results
    }

    /// When the system expired a continued-processing job, if it did.
    private static func expiredContinuedProcessing(in log: [SimulatorLogEntry]) -> TimeInterval? {
        var continued = Set<String>()
        for entry in log {
            switch entry.event {
            case .continuedProcessingSubmitted(let identifier, _): continued.insert(identifier)
            case .scheduledTaskExpired(let identifier, _) where continued.contains(identifier): return entry.time
            default: continue
            }
        }
        return nil
    }

    static func result(of simulator: BackgroundTaskSimulator, scenario: String, variant: String) -> ScenarioResult {
        if let termination = simulator.termination {
            return ScenarioResult(
                scenario: scenario,
                variant: variant,
                outcome: .terminated,
                code: termination.code.description,
                time: termination.time
            )
        }
        let lastEnd = simulator.log.last { entry in
            switch entry.event {
            case .ended, .scheduledTaskCompleted: true
            default: false
            }
        }
        if let expiry = expiredContinuedProcessing(in: simulator.log) {
            return ScenarioResult(scenario: scenario, variant: variant, outcome: .expired, code: nil, time: expiry)
        }
        // Any console warning of iOS's, or a termination only the debugger prevented.
        let warned =
            !simulator.consoleMessages.isEmpty
            || simulator.events.contains { event in
                if case .terminationPreventedByDebugger = event { true } else { false }
            }
        return ScenarioResult(
            scenario: scenario,
            variant: variant,
            outcome: warned ? .warned : .clean,
            code: nil,
            time: lastEnd?.time ?? 0
        )
    }
}
