import Foundation

/// What records a manager's tasks for diagnostics (`BackgroundTaskDiagnostics`' ledger): the one
/// thing the engine tells about its tasks beyond running them. A manager created without
/// diagnostics has none, and its engine builds nothing for it.
///
/// The engine calls every method under its lock, so a recorder only computes and queues: it never
/// calls user code, the backend or an observer from here. Each call does constant work.
package protocol TaskRecorder: AnyObject {
    /// The engine's clock time of the operation in progress; set before the calls of an operation.
    var operationTime: TimeInterval { get set }
    /// Age at which a running task is reported stale; `nil`: never.
    var staleTaskAge: TimeInterval? { get }
    /// Whether anyone listens for events (the engine then times the expiration handlers).
    var observed: Bool { get }

    /// Reports running tasks that turned stale; amortized constant work.
    func checkStale(in tasks: inout TaskList)
    /// A begin call, before the engine decides whether the task runs.
    func noteBegin(_ entry: TaskListEntry)
    /// A begun task was refused by the manager's cap or time guard.
    func noteRefused(_ entry: TaskListEntry, error: BackgroundTaskError)
    /// A begun task runs from now on.
    func noteRunning(_ entry: TaskListEntry)
    /// A running task's assertion was granted.
    func noteGranted(_ entry: TaskListEntry)
    /// A running task stopped running.
    func noteFinished(_ entry: TaskListEntry, as ending: TaskEnding)
    /// The expiration handler covering `entry` started running its cleanups.
    func noteExpirationHandlerEntered(_ entry: TaskListEntry)
    /// The expiration handler covering `entry` finished its cleanups after `duration` seconds.
    func noteExpirationHandlerExited(_ entry: TaskListEntry, duration: TimeInterval)
    /// An assertion (a coalescing manager's shared one) reached the stale age.
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
