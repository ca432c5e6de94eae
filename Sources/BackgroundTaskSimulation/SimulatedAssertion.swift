import BackgroundTaskKit
import Foundation

/// An assertion the simulated system has granted and that has not been ended yet.
public struct SimulatedAssertion: Equatable, Sendable, CustomStringConvertible {
    /// The identifier the simulator returned from `beginBackgroundTask`.
    public var identifier: BackgroundTaskIdentifier
    /// The name passed to `beginBackgroundTask`, if any.
    public var name: String?
    /// Virtual time, in seconds, at which the assertion was begun.
    public var createdAt: TimeInterval

    /// Creates a record of an assertion.
    public init(identifier: BackgroundTaskIdentifier, name: String?, createdAt: TimeInterval) {
        self.identifier = identifier
        self.name = name
        self.createdAt = createdAt
    }

    /// `3 ("Saving library")`, the way iOS refers to a task.
    public var description: String {
        "\(identifier.rawValue) (\"\(name ?? "")\")"
    }
}
