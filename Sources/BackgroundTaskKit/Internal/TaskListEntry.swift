import Foundation

/// One task in a ``TaskList``, in begin order: a manager's task record, a diagnosing backend's or tracer's assertion. A
/// class, so the owner's own object *is* the entry: no second copy, no hashing on begin and end. Every stored property
/// is touched only under the owner's lock, so run-time exclusivity checks are off (`@exclusivity(unchecked)`). The last
/// fields are a ``TaskRecorder``'s marks (9 bytes), which only a recorder touches. Open (as SPI, not API) only so
/// `BackgroundTaskDiagnostics`' and `BackgroundTaskTracing`'s entries can subclass it.
@_spi(BackgroundTaskKitInternals)
open class TaskListEntry: @unchecked Sendable {  // mutable state only under the owner's lock
    // Other modules (the recorder, the tracer) reach the mutable fields only through the accessors below: on a stored
    // property of another module Swift checks exclusivity at run time whatever its attribute says, which cost a
    // diagnosing backend 836 instructions per begin+end (8,771 then 7,935: callgrind, 2026-11-25). Unchecked: the
    // checks would cost a manager with one assertion per task 501 more a pair.
    @exclusivity(unchecked) private final var _number: UInt64
    package final let name: String?
    package final let callSite: BackgroundTaskCallSite
    package final let beganAt: TimeInterval  // the owner's clock time of the begin
    /// The list links. `previous` is unowned: the list owns its entries through `next` and the head.
    @exclusivity(unchecked) private final var _next: TaskListEntry?
    @exclusivity(unchecked) package final unowned(unsafe) var previous: TaskListEntry?
    @exclusivity(unchecked) package final var isLinked = false  // in its owner's list

    // A recorder's marks, last, so subclasses pack their own small fields after them: its call site's index in the
    // recorder's statistics (`-1` until seen); counted as running; granted (counts toward the high-water mark); expiry
    // reported while it runs on (a diagnosing backend's assertion stays held until ended), so no more stale checks;
    // expiration handler returned (diagnosing backends and tracers time it), for flight recorder snapshots.
    @exclusivity(unchecked) private final var _statisticsIndex: Int32 = -1
    @exclusivity(unchecked) private final var _isRunning = false
    @exclusivity(unchecked) private final var _isGranted = false
    @exclusivity(unchecked) private final var _expiryReported = false
    @exclusivity(unchecked) private final var _expiryHandlerReturned = false

    /// The task's number at its owner: grows with each begin, so it orders tasks.
    package final var number: UInt64 {
        get { _number }
        set { _number = newValue }
    }
    /// The next entry of the list.
    package final var next: TaskListEntry? {
        get { _next }
        set { _next = newValue }
    }
    package final var statisticsIndex: Int32 {
        get { _statisticsIndex }
        set { _statisticsIndex = newValue }
    }
    package final var isRunning: Bool {
        get { _isRunning }
        set { _isRunning = newValue }
    }
    package final var isGranted: Bool {
        get { _isGranted }
        set { _isGranted = newValue }
    }
    package final var expiryReported: Bool {
        get { _expiryReported }
        set { _expiryReported = newValue }
    }
    package final var expiryHandlerReturned: Bool {
        get { _expiryHandlerReturned }
        set { _expiryHandlerReturned = newValue }
    }

    /// Public within the SPI: with a `package` initializer, Swift 6.3 warns of an infinite recursion in every subclass
    /// (a spurious warning, which CI's warnings-as-errors build would fail on).
    public init(number: UInt64, name: String?, callSite: BackgroundTaskCallSite, beganAt: TimeInterval) {
        self._number = number
        self.name = name
        self.callSite = callSite
        self.beganAt = beganAt
    }
}
