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
    /// The line that began it, when it was begun through one of BackgroundTaskKit's wrappers (iOS
    /// itself never knows this).
    public var callSite: BackgroundTaskCallSite?

    /// Creates a record of an assertion.
    public init(
        identifier: BackgroundTaskIdentifier,
        name: String?,
        createdAt: TimeInterval,
        callSite: BackgroundTaskCallSite? = nil
    ) {
        self.identifier = identifier
        self.name = name
        self.createdAt = createdAt
        self.callSite = callSite
    }

    /// `3 ("Saving library")`, the way iOS refers to a task, followed by the call site when known:
    /// `3 ("Saving library") begun at App/Library.swift:7 (save())`.
    public var description: String {
        let base = "\(identifier.rawValue) (\"\(name ?? "")\")"
        return callSite.map { "\(base) begun at \($0)" } ?? base
    }
}
