import Foundation

/// A broken promise the checker found, with the run that shows it.
public struct PromiseViolation: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line; equal for the same kind of failure, so that shrinking keeps it.
    public var kind: String
    /// Details: the simulator's log around it.
    public var details: String
    /// The run's setup.
    public var setup: PromiseSetup
    /// The operations, up to and including the one after which the check failed.
    public var operations: [PromiseOperation]
    /// The seed that generated the run.
    public var seed: UInt64

    /// The kind, the seed, a Swift reproduction and the details.
    public var description: String {
        [
            "Promise broken: \(kind) (seed \(seed), \(operations.count) operations)",
            "Reproduction:",
            PromiseReproduction.swiftCode(setup: setup, operations: operations, failure: kind),
            details,
        ]
        .joined(separator: "\n")
    }
}
