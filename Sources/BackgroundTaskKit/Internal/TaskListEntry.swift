import Foundation

/// One task in a ``TaskList``, linked in begin order: a manager's task record, a diagnosing
/// backend's or a tracer's assertion.
///
/// A class, so that the owner's own object *is* the entry: no second copy of each running task, no
/// hashing on begin and end. Every stored property is read and written only under the owner's lock,
/// so the run-time exclusivity checks are off (`@exclusivity(unchecked)`): the lock already makes
/// every access exclusive.
///
/// The last fields are a ``TaskRecorder``'s marks (9 bytes), which only a recorder reads or writes.
/// Open (as SPI, not API) only so that the entries of `BackgroundTaskDiagnostics` and
/// `BackgroundTaskTracing` can subclass it.
@_spi(BackgroundTaskKitInternals)
open class TaskListEntry: @unchecked Sendable {  // mutable state only under the owner's lock
    /// The task's number at its owner: grows with each begin, so it orders tasks.
    @exclusivity(unchecked) package final var number: UInt64
    package final let name: String?
    package final let callSite: BackgroundTaskCallSite
    /// The owner's clock time of the begin.
    package final let beganAt: TimeInterval
    /// The list links. `previous` is unowned: the list owns its entries through `next` and the head.
    @exclusivity(unchecked) package final var next: TaskListEntry?
    @exclusivity(unchecked) package final unowned(unsafe) var previous: TaskListEntry?
    /// In its owner's list.
    @exclusivity(unchecked) package final var isLinked = false

    // A recorder's marks, last, so that subclasses pack their own small fields after them.
    /// Index of its call site in the recorder's statistics; `-1` until the recorder has seen it.
    @exclusivity(unchecked) package final var statisticsIndex: Int32 = -1
    /// Counted by the recorder among the running tasks.
    @exclusivity(unchecked) package final var isRunning = false
    /// Its assertion was granted: it counts toward the high-water mark.
    @exclusivity(unchecked) package final var isGranted = false
    /// Its expiry was reported while it still runs (a diagnosing backend's assertion is held until
    /// something ends it); it is no longer checked for staleness.
    @exclusivity(unchecked) package final var expiryReported = false
    /// Its expiration handler returned (diagnosing backends and tracers time it): for the flight
    /// recorder's snapshots.
    @exclusivity(unchecked) package final var expiryHandlerReturned = false

    /// Public within the SPI: with a `package` initializer, Swift 6.3 warns of an infinite recursion
    /// in every subclass (a spurious warning, which CI's warnings-as-errors build would fail on).
    public init(number: UInt64, name: String?, callSite: BackgroundTaskCallSite, beganAt: TimeInterval) {
        self.number = number
        self.name = name
        self.callSite = callSite
        self.beganAt = beganAt
    }
}
