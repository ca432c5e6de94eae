import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskSimulation
import BackgroundTaskTimeline
import Foundation

/// What the package's diagnostics would have said about a scenario's naive flow: the report of a
/// ``DiagnosingBackend`` its raw calls went through, the notable events its observers got, and the
/// simulated system's verdict. What `bgtask simulate --explain` prints.
public struct ScenarioExplanation: Sendable {
    /// The scenario's id.
    public let scenario: String
    /// How the naive flow ended on the simulator.
    public let result: ScenarioResult
    /// The termination, with the assertions still held and their call sites; `nil` when none.
    public let termination: SimulatedTermination?
    /// The diagnostics report at the end of the run.
    public let report: BackgroundTaskReport
    /// The events an observer got, in order, without the routine `began` and `ended`.
    public let notableEvents: [BackgroundTaskEvent]
    /// What iOS printed to the console during the run ("Can't end BackgroundTask…", the 30-second
    /// warning, "still not ended after expiration handlers…"), with the virtual time of each.
    public let consoleMessages: [(time: TimeInterval, message: ConsoleMessage)]
    /// The run as a timeline, its lanes named by the lines that began them.
    public let timeline: BackgroundTaskTimeline

    /// The call sites to fix: those whose assertions the system still held when it terminated the
    /// app, or, without a termination, those with assertions still outstanding.
    public var leakingCallSites: [BackgroundTaskCallSite] {
        var sites: [BackgroundTaskCallSite] = []
        for site in termination?.heldAssertions.compactMap(\.callSite) ?? [] where !sites.contains(site) {
            sites.append(site)
        }
        for statistics in report.callSites where statistics.outstanding > 0 && !sites.contains(statistics.callSite) {
            sites.append(statistics.callSite)
        }
        return sites
    }
}

extension ScenarioRunner {
    /// A run's timeline, ending at its last event rather than after the settling time, so that runs compared side
    /// by side share a scale that shows what happened.
    ///
    /// - Parameters:
    ///   - simulator: The simulator the run used.
    ///   - title: What the picture shows, for example `property-overwrite — naive`.
    public static func timeline(of simulator: BackgroundTaskSimulator, title: String) -> BackgroundTaskTimeline {
        BackgroundTaskTimeline(
            simulatorLog: simulator.log, assertions: simulator.assertionHistory, configuration: simulator.configuration,
            title: title)
    }

    /// Runs a scenario's naive flow with its raw calls going through a ``DiagnosingBackend``, and
    /// returns what the diagnostics show; `nil` for a scenario without a naive flow.
    ///
    /// The run is the one ``run(_:of:configuration:)`` makes for the naive variant: same simulator,
    /// same settling, same result.
    @MainActor
    public static func explain(_ scenario: Scenario) async -> ScenarioExplanation? {
        guard let naiveFlow = scenario.naiveFlow else { return nil }
        let simulator = BackgroundTaskSimulator(configuration: scenario.configuration, faults: scenario.faults)
        let backend = RawBackend(simulator)
        let events = Guarded<[BackgroundTaskEvent]>([])
        backend.diagnostics.addObserver { event in
            switch event.kind {
            case .began, .ended: return
            default: events.update { $0.append(event) }
            }
        }
        await naiveFlow(simulator, backend)
        settle(simulator)
        backend.diagnostics.waitForObservers()
        return ScenarioExplanation(
            scenario: scenario.id,
            result: result(of: simulator, scenario: scenario.id, variant: ScenarioVariant.naive),
            termination: simulator.termination,
            report: backend.diagnostics.report(),
            notableEvents: events.value,
            consoleMessages: simulator.log.compactMap { entry in
                if case .console(let message) = entry.event { (entry.time, message) } else { nil }
            },
            timeline: timeline(of: simulator, title: "\(scenario.id) — \(ScenarioVariant.naive)")
        )
    }
}
