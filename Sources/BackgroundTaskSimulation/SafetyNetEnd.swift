import BackgroundTaskKit
import Foundation

/// A task of BackgroundTaskKit's that its owner released while it was still running, which the
/// safety net then ended: the work lost track of its task, a leak that the package caught.
///
/// The simulator learns of them from the package's engine (iOS never does).
/// ``BackgroundTaskSimulator/expectNoLeaks()`` fails on each one, naming the line that began it.
public struct SafetyNetEnd: Equatable, Sendable, CustomStringConvertible {
    /// The task's name.
    public var name: String?
    /// The line that began the task.
    public var callSite: BackgroundTaskCallSite
    /// Virtual time of the end.
    public var time: TimeInterval
    /// The assertion the safety net ended; `nil` for a task that shared its manager's assertion
    /// (the assertion itself ends when its last task does).
    public var identifier: BackgroundTaskIdentifier?

    /// Creates a record.
    public init(
        name: String?, callSite: BackgroundTaskCallSite, time: TimeInterval, identifier: BackgroundTaskIdentifier?
    ) {
        self.name = name
        self.callSite = callSite
        self.time = time
        self.identifier = identifier
    }

    /// `"Upload" begun at App/Uploader.swift:12 (start()), released while running, ended by the safety net at 3 s`.
    public var description: String {
        let task = name.map { "\"\($0)\"" } ?? "(unnamed)"
        return
            "\(task) begun at \(callSite), released while running, ended by the safety net at \(formatSeconds(time)) s"
    }
}
