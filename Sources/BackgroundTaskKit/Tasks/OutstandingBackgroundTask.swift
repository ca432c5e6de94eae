import Foundation

/// A background task that is still running, as ``BackgroundTaskManager/outstandingTasks`` and
/// ``DiagnosingBackend/outstandingTasks`` list it.
public struct OutstandingBackgroundTask: Codable, Equatable, Sendable {
    /// The task's number at its manager or backend: the ``BackgroundTaskEvent/TaskID/number`` of its
    /// events, so a report's outstanding task can be matched with its log lines.
    public var taskNumber: UInt64
    /// The task's name, if it has one.
    public var name: String?
    /// Where it was begun.
    public var callSite: BackgroundTaskCallSite
    /// Seconds since it was begun.
    public var age: TimeInterval

    /// Creates a record.
    public init(taskNumber: UInt64, name: String?, callSite: BackgroundTaskCallSite, age: TimeInterval) {
        self.taskNumber = taskNumber
        self.name = name
        self.callSite = callSite
        self.age = age
    }
}
