import BackgroundTaskSimulation
import Foundation

/// How one variant of one scenario ended, as `bgtask simulate` prints it.
///
/// Its JSON form has exactly the keys `scenario`, `variant`, `outcome` (`clean`, `warned`, `terminated` or `expired`),
/// `code` (for example `"0x8badf00d"`, `"SIGABRT"` for the framework's exception, or `null`) and `time` (virtual
/// seconds).
public struct ScenarioResult: Codable, Equatable, Sendable {
    /// Whether the simulated app survived.
    public enum Outcome: String, Codable, Sendable {
        /// Not terminated, no assertion left held, and no warning from the system.
        case clean
        /// Not terminated and no assertion left held, but the system printed its "created over 30
        /// seconds ago" warning: an assertion was held longer than iOS likes (on a device, a risk of
        /// termination in the background and noise in the console).
        case warned
        /// Killed by the simulated system.
        case terminated
        /// Not terminated, but the system expired a person-started continued-processing job (as stalled): the
        /// work the person asked for was lost.
        case expired
    }

    /// The scenario's ``Scenario/id``.
    public var scenario: String
    /// The variant's name.
    public var variant: String
    /// Clean or terminated.
    public var outcome: Outcome
    /// The termination's exception code (`SIGABRT` for the framework's exception), `nil` when clean.
    public var code: String?
    /// Virtual seconds: of the termination, or, when clean, of the last end (0 if none).
    public var time: TimeInterval

    /// Creates a result.
    public init(scenario: String, variant: String, outcome: Outcome, code: String?, time: TimeInterval) {
        self.scenario = scenario
        self.variant = variant
        self.outcome = outcome
        self.code = code
        self.time = time
    }

    private enum CodingKeys: String, CodingKey {
        case scenario, variant, outcome, code, time
    }

    /// Encodes every key, `code` as `null` when clean.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(variant, forKey: .variant)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(code, forKey: .code)
        try container.encode(time, forKey: .time)
    }
}
