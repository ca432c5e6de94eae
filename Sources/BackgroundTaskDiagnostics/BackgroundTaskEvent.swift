@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// Something that happened to a background task, as observers see it.
public struct BackgroundTaskEvent: Equatable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        /// The system granted the task's assertion (or the task joined a granted shared assertion).
        /// A task the system refuses gets ``refused(_:)`` instead; one whose handler ran before the
        /// grant was known gets only ``expired``.
        case began
        /// Its owner ended it (or `endAll()` did).
        case ended
        /// Time ran out. Reported as the expiry starts, before the cleanup or handler runs; a
        /// manager's task is then ended, while an assertion seen by a ``DiagnosingBackend`` stays held
        /// until something ends it.
        case expired
        /// Time ran out and the task's expiration cleanup is about to run (WWDC20's "Entered").
        case expirationHandlerEntered
        /// The task's expiration cleanup returned after `duration` seconds (WWDC20's "Exited"). More
        /// "entered" than "exited" events means a cleanup never returned.
        case expirationHandlerExited(duration: TimeInterval)
        /// Its owner let go while it ran; the deinit safety net ended it. A leak at ``callSite``.
        case endedBySafetyNet
        /// It never ran: a manager refused it, or the system did.
        case refused(BackgroundTaskError)
        /// The task has been running for `age` seconds, over its owner's
        /// ``BackgroundTaskDiagnostics/Configuration/staleTaskAge`` (30 s by default, when iOS prints its
        /// "created over 30 seconds ago" warning). Reported once per task.
        case stale(age: TimeInterval)
        /// A manager's running tasks reached 80 % of its cap, or a diagnosing backend's held
        /// assertions 80 % of its limit (reported once per crossing).
        case limitApproaching(outstanding: Int, limit: Int)
        /// Seen by a `BackgroundTaskTracer`: the assertion's expiration handler returned (for one
        /// begun without a handler: a handler of the same expiry returned) and the assertion is still
        /// held. The system terminates an app in this state (`0x8badf00d`); ``callSite`` names the
        /// image and symbol that began it. Reported once per assertion.
        case heldAfterExpirationHandlers
        /// A `BackgroundTaskTracer` with rescue on ended the assertion for its owner, inside its
        /// expiration handler call, because the handler returned without ending it.
        case rescued
        /// Seen by a `BackgroundTaskTracer`: the assertion was ended again after it was ended (iOS
        /// logs "Can't end BackgroundTask"; a reused identifier would end somebody else's task).
        case endedTwice
        /// Seen by a `BackgroundTaskTracer`: the owner of a rescued assertion ended it after the
        /// rescue. The tracer does not pass this end on (the assertion was ended once already).
        case endedAfterRescue
    }

    /// Tells one task's events from another's: equal for every event of the same task, different
    /// for tasks of different managers or backends.
    public struct TaskID: Hashable, Sendable, CustomStringConvertible {
        /// The manager or diagnosing backend that reported the task, while it is alive.
        let source: ObjectIdentifier?
        /// The task's number at its manager or backend: 1 for the first task begun there, and so on.
        public let number: UInt64

        /// A task ID with this number and no source (for tests of observers).
        public init(number: UInt64) {
            self.init(source: nil, number: number)
        }

        init(source: ObjectIdentifier?, number: UInt64) {
            self.source = source
            self.number = number
        }

        /// `#` and the number.
        public var description: String { "#\(number)" }
    }

    /// What happened.
    public var kind: Kind
    /// Which task it happened to; pairs a task's ``Kind/began`` with how it finished.
    public var taskID: TaskID
    /// The task's name, if it has one.
    public var name: String?
    /// Where the task was begun.
    public var callSite: BackgroundTaskCallSite
    /// The engine clock's time of the event, in seconds.
    public var time: TimeInterval

    /// Creates an event.
    public init(
        kind: Kind,
        taskID: TaskID = TaskID(number: 0),
        name: String?,
        callSite: BackgroundTaskCallSite,
        time: TimeInterval
    ) {
        self.kind = kind
        self.taskID = taskID
        self.name = name
        self.callSite = callSite
        self.time = time
    }
}

/// Receives the events of a `BackgroundTaskManager` or a ``DiagnosingBackend``: for logging,
/// analytics or tests.
///
/// Each observer gets the events in order, on a serial queue of its own, never while the package
/// holds a lock: a slow observer slows only itself, and an observer may begin or end tasks.
///
/// ```swift
/// struct AnalyticsObserver: BackgroundTaskObserver {
///     func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
///         if case .endedBySafetyNet = event.kind { analytics.log("bg-task-leak", event.callSite.description) }
///     }
/// }
/// manager.diagnostics?.addObserver(AnalyticsObserver())
/// ```
public protocol BackgroundTaskObserver: Sendable {
    /// Called once per event, in order.
    func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent)
}

/// An observer made of a closure.
public struct ClosureBackgroundTaskObserver: BackgroundTaskObserver {
    private let handler: @Sendable (BackgroundTaskEvent) -> Void

    /// Creates an observer that calls `handler` for every event.
    public init(_ handler: @escaping @Sendable (BackgroundTaskEvent) -> Void) {
        self.handler = handler
    }

    /// Calls the closure.
    public func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        handler(event)
    }
}
