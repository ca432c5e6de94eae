import Foundation

/// A background task that is still running, as ``BackgroundTaskManager/outstandingTasks`` lists it.
public struct OutstandingBackgroundTask: Codable, Equatable, Sendable {
    /// The task's name, if it has one.
    public var name: String?
    /// Where it was begun.
    public var callSite: BackgroundTaskCallSite
    /// Seconds since it was begun.
    public var age: TimeInterval

    /// Creates a record.
    public init(name: String?, callSite: BackgroundTaskCallSite, age: TimeInterval) {
        self.name = name
        self.callSite = callSite
        self.age = age
    }
}
