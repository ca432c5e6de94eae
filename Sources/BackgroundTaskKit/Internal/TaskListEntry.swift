import Foundation

/// One task in a ``TaskList``, in begin order: a manager's task record, a diagnosing backend's or tracer's assertion. A
/// class, so the owner's own object *is* the entry: no second copy, no hashing on begin and end. Every stored property
/// is touched only under the owner's lock, so run-time exclusivity checks are off (`@exclusivity(unchecked)`). The last
/// fields are a ``TaskRecorder``'s marks (9 bytes), which only a recorder touches. Open (as SPI, not API) only so
/// `BackgroundTaskDiagnostics`' and `BackgroundTaskTracing`'s entries can subclass it.
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

    // A recorder's marks, last, so subclasses pack their own small fields after them: its call site's index in the
    // recorder's statistics (`-1` until seen); counted as running; granted (counts toward the high-water mark); expiry
    // reported while it runs on (a diagnosing backend's assertion stays held until ended), so no more stale checks;
    // expiration handler returned (diagnosing backends and tracers time it), for flight recorder snapshots.
    @exclusivity(unchecked) package final var statisticsIndex: Int32 = -1
    @exclusivity(unchecked) package final var isRunning = false
    @exclusivity(unchecked) package final var isGranted = false
    @exclusivity(unchecked) package final var expiryReported = false
    @exclusivity(unchecked) package final var expiryHandlerReturned = false

    /// Public within the SPI: with a `package` initializer, Swift 6.3 warns of an infinite recursion in every subclass
    /// (a spurious warning, which CI's warnings-as-errors build would fail on).
    public init(number: UInt64, name: String?, callSite: BackgroundTaskCallSite, beganAt: TimeInterval) {
        self.number = number
        self.name = name
        self.callSite = callSite
        self.beganAt = beganAt
    }
}
