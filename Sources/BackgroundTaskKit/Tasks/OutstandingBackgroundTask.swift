import Foundation

/// A running task, as ``BackgroundTaskManager/outstandingTasks`` and `DiagnosingBackend.outstandingTasks` list it.
public struct OutstandingBackgroundTask: Codable, Equatable, Sendable {
    /// The number at its manager or backend: its events' `BackgroundTaskEvent.TaskID.number`, to match log lines.
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
