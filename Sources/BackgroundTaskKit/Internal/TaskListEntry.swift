import Foundation

/// One task in a ``TaskList``, in begin order: a manager's task record, a diagnosing backend's or tracer's assertion. A
/// class, so the owner's own object *is* the entry: no second copy, no hashing on begin and end. Every stored property
/// is touched only under the owner's lock, so run-time exclusivity checks are off (`@exclusivity(unchecked)`). Open (as
/// SPI, not API) only so `BackgroundTaskDiagnostics`' and `BackgroundTaskTracing`'s entries can subclass it.
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
    @exclusivity(unchecked) private final var _next: TaskListEntry?  // the list owns its entries through `next`
    @exclusivity(unchecked) package final unowned(unsafe) var previous: TaskListEntry?
    @exclusivity(unchecked) package final var isLinked = false  // in its owner's list

    /// The task's number at its owner: grows with each begin, so it orders tasks.
    package final var number: UInt64 {
        get { _number }
        set { _number = newValue }
    }
    package final var next: TaskListEntry? {
        get { _next }
        set { _next = newValue }
    }
    /// A recorder's marks (``RecorderMarks``): stored only by the entries a recorder records (a manager's tasks with
    /// diagnostics, a diagnosing backend's and a tracer's assertions), so a standalone task carries none.
    open var recorderMarks: RecorderMarks {
        get { RecorderMarks() }
        set { assertionFailure("a recorder touched an entry that keeps no marks") }
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

/// What a ``TaskRecorder`` keeps per task: its call site's statistics index (`-1` until seen); running; granted (counts
/// toward the high-water mark); expiry reported while it runs on (no more stale checks); handler returned.
@_spi(BackgroundTaskKitInternals)
public struct RecorderMarks: Sendable {
    package var statisticsIndex: Int32 = -1
    package var isRunning = false
    package var isGranted = false
    package var expiryReported = false
    package var expiryHandlerReturned = false

    /// No marks yet.
    public init() {}
}
