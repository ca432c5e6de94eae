import BackgroundTaskSimulation

/// One bug pattern of background-task code, written several ways (variants), each run on a fresh
/// ``BackgroundTaskSimulator``.
public struct Scenario: Sendable, Identifiable {
    /// A short, stable name used on the command line, for example `missing-handler`.
    public let id: String
    /// What goes wrong, in one sentence.
    public let summary: String
    /// The ways the flow is written; the first is ``ScenarioVariant/naive``.
    public let variants: [ScenarioVariant]

    /// Creates a scenario.
    public init(id: String, summary: String, variants: [ScenarioVariant]) {
        self.id = id
        self.summary = summary
        self.variants = variants
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
}
