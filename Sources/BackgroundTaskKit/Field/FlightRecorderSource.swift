import Foundation

/// Something whose held background tasks a ``FlightRecorder`` snapshots, and whose events tell it
/// when: ``DiagnosingBackend`` (every task begun through it, by source line) and
/// ``BackgroundTaskTracer`` (every raw assertion in the process, by caller).
public protocol FlightRecorderSource: AnyObject, Sendable {
    /// The tasks held now, oldest first: at most `limit`, names cut to `maximumNameLength`
    /// characters; and how many were left out.
    func flightRecorderTasks(limit: Int, maximumNameLength: Int) -> (tasks: [FlightRecorderSnapshot.Task], omitted: Int)

    /// Adds an observer of the source's events (the recorder writes at the risky ones).
    @discardableResult
    func addObserver(_ observer: any BackgroundTaskObserver) -> BackgroundTaskObserverHandle
}
