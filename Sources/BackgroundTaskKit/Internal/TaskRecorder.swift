import Foundation

/// What records a manager's tasks for diagnostics (`BackgroundTaskDiagnostics`' ledger); a manager without diagnostics
/// has none and builds nothing for it. The engine calls it only under its lock, so a recorder only computes and queues,
/// never calling user code, the backend or an observer; each call does constant work.
package protocol TaskRecorder: AnyObject {
    /// The engine's clock time of the operation in progress; set before the calls of an operation.
    var operationTime: TimeInterval { get set }
    /// Age at which a running task is reported stale; `nil`: never.
    var staleTaskAge: TimeInterval? { get }
    /// Whether anyone listens for events (the engine then times the expiration handlers).
    var observed: Bool { get }
    /// Reports running tasks that turned stale; amortized constant work.
    func checkStale(in tasks: inout TaskList)
    // Notes: a begin (before deciding whether it runs); a refusal by the cap or time guard; now running; assertion
    // granted; stopped running; the covering expiration handler starting and finishing (after `duration` s) its
    // cleanups; an assertion (a coalescing manager's shared one) reaching the stale age.
    func noteBegin(_ entry: TaskListEntry)
    func noteRefused(_ entry: TaskListEntry, error: BackgroundTaskError)
    func noteRunning(_ entry: TaskListEntry)
    func noteGranted(_ entry: TaskListEntry)
    func noteFinished(_ entry: TaskListEntry, as ending: TaskEnding)
    func noteExpirationHandlerEntered(_ entry: TaskListEntry)
    func noteExpirationHandlerExited(_ entry: TaskListEntry, duration: TimeInterval)
    func noteStale(_ entry: TaskListEntry, age: TimeInterval)
}

/// How a task stopped running, as a recorder counts it.
package enum TaskEnding: Sendable {
    case ended
    case expired
    case endedBySafetyNet
    case notGranted
    /// A tracer's rescue ended it: counted as expired and as rescued.
    case rescued
}
