import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// The world one run of the checker starts with: the simulated system, the managers, and whether
/// faces may go through a ``DiagnosingBackend``.
public struct PromiseSetup: Sendable, Equatable {
    /// The simulated iOS.
    public var simulator = SimulatorConfiguration()
    /// Faults in force from the start.
    public var faults: Set<SimulatorFault> = []
    /// One configuration per manager; tasks name a manager by its index.
    public var managers: [BackgroundTaskManager.Configuration] = []
    /// Whether managers sit on a `DiagnosingBackend` wrapping the simulator.
    public var managersOnDiagnostics: [Bool] = []

    /// Creates an empty setup: current iOS, no faults, no managers.
    public init() {}

    /// A random setup.
    static func random(using random: inout PromiseRandom) -> PromiseSetup {
        var setup = PromiseSetup()
        setup.simulator.backgroundTimeBudget = random.pick([10, 30])
        setup.simulator.expirationLead = random.pick([0, 4])
        setup.simulator.debuggerAttached = random.chance(1, in: 10)
        setup.faults = PromiseOperation.randomFaults(using: &random)
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            var configuration = BackgroundTaskManager.Configuration()
            configuration.coalescesAssertions = random.chance(1, in: 2)
            configuration.linger = random.pick([0, 0.5, 3])
            configuration.maximumOutstandingTasks = random.pick([3, 100])
            configuration.minimumTimeRemaining = random.pick([nil, 5])
            configuration.holdsAssertionOnlyInBackground = random.chance(1, in: 4)
            configuration.sharedAssertionRenewalAge = random.pick([20, 6])
            setup.managers.append(configuration)
            setup.managersOnDiagnostics.append(random.chance(1, in: 3))
        }
        return setup
    }

    /// The setup as Swift code, ending with the simulator, its diagnosing wrapper and the managers.
    func swiftCode() -> [String] {
        var lines = ["var configuration = SimulatorConfiguration()"]
        lines.append("configuration.backgroundTimeBudget = \(simulator.backgroundTimeBudget)")
        lines.append("configuration.expirationLead = \(simulator.expirationLead)")
        if simulator.debuggerAttached { lines.append("configuration.debuggerAttached = true") }
        let faultList = faults.map(PromiseOperation.swiftCode(of:)).sorted().joined(separator: ", ")
        lines.append("let simulator = BackgroundTaskSimulator(configuration: configuration, faults: [\(faultList)])")
        lines.append("let diagnostics = DiagnosingBackend(wrapping: simulator)")
        for (index, configuration) in managers.enumerated() {
            let name = "managerConfiguration\(index)"
            lines.append("var \(name) = BackgroundTaskManager.Configuration()")
            lines.append("\(name).coalescesAssertions = \(configuration.coalescesAssertions)")
            lines.append("\(name).linger = \(configuration.linger)")
            lines.append("\(name).maximumOutstandingTasks = \(configuration.maximumOutstandingTasks)")
            lines.append(
                "\(name).minimumTimeRemaining = \(configuration.minimumTimeRemaining.map { "\($0)" } ?? "nil")")
            lines.append("\(name).holdsAssertionOnlyInBackground = \(configuration.holdsAssertionOnlyInBackground)")
            lines.append(
                "\(name).sharedAssertionRenewalAge = "
                    + "\(configuration.sharedAssertionRenewalAge.map { "\($0)" } ?? "nil")")
            let backend = managersOnDiagnostics[index] ? "diagnostics" : "simulator"
            lines.append("let manager\(index) = BackgroundTaskManager(backend: \(backend), configuration: \(name))")
        }
        return lines
    }
}
