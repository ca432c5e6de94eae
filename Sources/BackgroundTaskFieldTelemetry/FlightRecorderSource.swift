import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskTracing
import Foundation

/// Something whose held background tasks a ``FlightRecorder`` snapshots, and whose events tell it
/// when: `DiagnosingBackend` (every task begun through it, by source line) and
/// `BackgroundTaskTracer` (every raw assertion in the process, by caller).
public protocol FlightRecorderSource: AnyObject, Sendable {
    /// The tasks held now, oldest first: at most `limit`, names cut to `maximumNameLength`
    /// characters; and how many were left out.
    func flightRecorderTasks(limit: Int, maximumNameLength: Int) -> (tasks: [FlightRecorderSnapshot.Task], omitted: Int)

    /// Adds an observer of the source's events (the recorder writes at the risky ones).
    @discardableResult
    func addObserver(_ observer: any BackgroundTaskObserver) -> BackgroundTaskObserverHandle
}

extension DiagnosingBackend: FlightRecorderSource {
    /// The assertions held, oldest first, for a ``FlightRecorder``'s snapshot.
    public func flightRecorderTasks(limit: Int, maximumNameLength: Int) -> (
        tasks: [FlightRecorderSnapshot.Task], omitted: Int
    ) {
        let (held, omitted) = heldTasks(limit: limit, maximumNameLength: maximumNameLength)
        return (held.map { FlightRecorderSnapshot.Task($0, source: "backend") }, omitted)
    }
}

extension BackgroundTaskTracer: FlightRecorderSource {
    /// The traced assertions held, oldest first, for a ``FlightRecorder``'s snapshot.
    public func flightRecorderTasks(limit: Int, maximumNameLength: Int) -> (
        tasks: [FlightRecorderSnapshot.Task], omitted: Int
    ) {
        let (held, omitted) = heldTasks(limit: limit, maximumNameLength: maximumNameLength)
        return (held.map { FlightRecorderSnapshot.Task($0, source: "tracer") }, omitted)
    }
}

extension FlightRecorderSnapshot.Task {
    /// A held task as its source summarized it.
    init(_ summary: HeldTaskSummary, source: String) {
        self.init(
            callSite: summary.callSite, name: summary.name, age: summary.age, expiryStarted: summary.expiryStarted,
            handlerReturned: summary.handlerReturned, source: source)
    }
}

extension FlightRecorderSnapshot.Moment {
    /// The moment a source reported for writing at once.
    init(_ moment: CriticalMoment) {
        switch moment {
        case .lastTaskEnded: self = .lastTaskEnded
        case .heldAfterHandlers: self = .heldAfterHandlers
        }
    }
}
