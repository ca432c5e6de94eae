import BackgroundTaskKit
import BackgroundTaskSimulation

/// One bug pattern of background-task code, written several ways (variants), each run on a fresh
/// ``BackgroundTaskSimulator``.
public struct Scenario: Sendable, Identifiable {
    /// A short, stable name used on the command line, for example `missing-handler`.
    public let id: String
    /// What goes wrong, in one sentence.
    public let summary: String
    /// The ways the flow is written: ``ScenarioVariant/naive`` first, then the correct flow run with
    /// raw calls (``ScenarioVariant/correct``) and with each face of the library.
    public let variants: [ScenarioVariant]
    /// The buggy flow with its raw calls, for ``ScenarioRunner/explain(_:)``; `nil` when the scenario
    /// was made from variants alone.
    public let naiveFlow: (@MainActor @Sendable (BackgroundTaskSimulator, RawBackend) async -> Void)?
    /// The simulated system every variant runs on (default: current iOS).
    public let configuration: SimulatorConfiguration
    /// The faults every variant runs with (default: none).
    public let faults: Set<SimulatorFault>

    /// Creates a scenario with exactly these variants.
    public init(
        id: String,
        summary: String,
        variants: [ScenarioVariant],
        configuration: SimulatorConfiguration = SimulatorConfiguration(),
        faults: Set<SimulatorFault> = []
    ) {
        self.init(
            id: id, summary: summary, variants: variants, naiveFlow: nil, configuration: configuration, faults: faults)
    }

    private init(
        id: String,
        summary: String,
        variants: [ScenarioVariant],
        naiveFlow: (@MainActor @Sendable (BackgroundTaskSimulator, RawBackend) async -> Void)?,
        configuration: SimulatorConfiguration,
        faults: Set<SimulatorFault>
    ) {
        self.id = id
        self.summary = summary
        self.variants = variants
        self.naiveFlow = naiveFlow
        self.configuration = configuration
        self.faults = faults
    }

    /// Creates a scenario from its buggy flow and its correct flow, which is run once per way of
    /// beginning tasks (see ``ScenarioVariant/correctVariantNames``).
    ///
    /// - Parameters:
    ///   - id: The scenario's command-line name.
    ///   - summary: What goes wrong, in one sentence.
    ///   - configuration: The simulated system (default: current iOS).
    ///   - faults: The faults every variant runs with (default: none).
    ///   - backend: What the correct variants' tasks go through, made from the simulator (default: the
    ///     simulator itself, as `UIApplication`; an app extension's scenario passes
    ///     `ExpiringActivityBackend(simulator)`).
    ///   - naive: The flow written the buggy way, with raw calls through a ``RawBackend``.
    ///   - flow: The same flow written correctly against a ``TaskStarter``.
    public init(
        id: String,
        summary: String,
        configuration: SimulatorConfiguration = SimulatorConfiguration(),
        faults: Set<SimulatorFault> = [],
        backend: @escaping @MainActor @Sendable (BackgroundTaskSimulator) -> any BackgroundTaskBackend = { $0 },
        naive: @escaping @MainActor @Sendable (BackgroundTaskSimulator, RawBackend) async -> Void,
        flow: @escaping @MainActor @Sendable (BackgroundTaskSimulator, any TaskStarter) async -> Void
    ) {
        let correct = ScenarioVariant.correctVariantNames.map { name in
            ScenarioVariant(name: name) { simulator in
                await flow(
                    simulator, ScenarioVariant.starter(named: name, simulator: simulator, backend: backend(simulator)))
            }
        }
        let naiveVariant = ScenarioVariant(name: ScenarioVariant.naive) { simulator in
            await naive(simulator, RawBackend(simulator))
        }
        self.init(
            id: id, summary: summary, variants: [naiveVariant] + correct, naiveFlow: naive,
            configuration: configuration, faults: faults)
    }

    /// The variant with this name, if the scenario has one.
    public func variant(named name: String) -> ScenarioVariant? {
        variants.first { $0.name == name }
    }
}

/// One way of writing a scenario's flow.
public struct ScenarioVariant: Sendable {
    /// The variant's name, for example `naive` or `correct`.
    public let name: String
    /// Drives the simulator through the flow: the app's calls and the passing of time.
    public let body: @MainActor @Sendable (BackgroundTaskSimulator) async -> Void

    /// Creates a variant.
    public init(name: String, body: @escaping @MainActor @Sendable (BackgroundTaskSimulator) async -> Void) {
        self.name = name
        self.body = body
    }

    /// Name of the variant written the buggy way, with raw backend calls.
    public static let naive = "naive"
    /// Name of the variant written correctly by hand, with raw backend calls.
    public static let correct = "correct"

    /// The variants that run a scenario's correct flow, in output order: raw calls, then each face.
    public static let correctVariantNames = [
        correct, "safe", "scoped", "closure", "manager", "manager-coalesced", "manager-lazy",
    ]

    /// The way of beginning tasks that the variant `name` uses, on `simulator` through `backend`
    /// (default: the simulator itself; raw calls for an unknown name).
    @MainActor
    public static func starter(
        named name: String,
        simulator: BackgroundTaskSimulator,
        backend: (any BackgroundTaskBackend)? = nil
    ) -> any TaskStarter {
        let backend = backend ?? simulator
        switch name {
        case "safe":
            return SafeTaskStarter(backend: backend)
        case "scoped":
            return ScopedTaskStarter(backend: backend)
        case "closure":
            return ClosureTaskStarter(backend: backend)
        case "manager", "manager-coalesced", "manager-lazy":
            var configuration = BackgroundTaskManager.Configuration()
            configuration.coalescesAssertions = name == "manager-coalesced"
            configuration.holdsAssertionOnlyInBackground = name == "manager-lazy"
            let manager = BackgroundTaskManager(
                backend: backend,
                configuration: configuration)
            return SafeTaskStarter(backend: backend, manager: manager)
        default:
            return HandWrittenStarter(backend: RawBackend(simulator, through: backend))
        }
    }
}
