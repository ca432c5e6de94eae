import Foundation

/// A user cleanup, run on the main actor when the task expires.
package typealias ExpirationCleanup = @MainActor @Sendable () -> Void

/// Holds (or will hold) one system assertion of an engine: a task in per-task mode, or a coalescing manager's shared
/// assertion. The backend's expiration handler captures only this object.
class AssertionHolder: TaskListEntry, @unchecked Sendable {  // mutable state only under `engine.lock`
    let engine: TaskEngine
    let backend: any BackgroundTaskBackend  // the backend its assertion is begun and ended through
    /// Its calls to the backend: only through `state[call: holder]`, under the lock.
    @exclusivity(unchecked) fileprivate final var call = AssertionCall()

    init(
        engine: TaskEngine,
        backend: any BackgroundTaskBackend,
        number: UInt64,
        name: String?,
        callSite: BackgroundTaskCallSite,
        beganAt: TimeInterval,
        phase: AssertionCall.Phase = .none
    ) {
        self.engine = engine
        self.backend = backend
        self.call.phase = phase
        super.init(number: number, name: name, callSite: callSite, beganAt: beganAt)
    }
}

/// One logical task: what every face holds. In per-task mode it holds its own assertion; coalescing, its manager's.
class TaskRecord: AssertionHolder, @unchecked Sendable {  // mutable state only under `engine.lock`
    struct Guarded {
        var cleanup: ExpirationCleanup?  // the user's, until the task finishes
        var status = TaskStatus.running
        var isCoalesced = false  // it uses its manager's shared assertion
    }
    final let body: BodyTask?  // an async `withBackgroundTask` body to cancel on expiry (set once, at the begin)
    @exclusivity(unchecked) fileprivate final var guarded: Guarded  // only through `state[record]`, under the lock

    init(
        engine: TaskEngine, backend: any BackgroundTaskBackend, name: String?, callSite: BackgroundTaskCallSite,
        beganAt: TimeInterval, cleanup: ExpirationCleanup?, body: BodyTask?, phase: AssertionCall.Phase
    ) {
        guarded = Guarded(cleanup: cleanup)
        self.body = body
        super.init(
            engine: engine, backend: backend, number: 0, name: name, callSite: callSite, beganAt: beganAt,
            phase: phase)
    }
}

/// A manager's task while its engine has a recorder: the only task record that stores a recorder's marks.
final class RecordedTaskRecord: TaskRecord, @unchecked Sendable {  // mutable state only under `engine.lock`
    @exclusivity(unchecked) private var marks = RecorderMarks()
    override var recorderMarks: RecorderMarks {
        get { marks }
        set { marks = newValue }
    }
}

/// The task running an async `withBackgroundTask` body, which an expiry cancels through `UnsafeCurrentTask` (the only
/// handle Swift offers), used only while attached: the body's task attaches it as it starts, and the body's end
/// detaches it, waiting for a cancel in progress, before the body's task can finish.
final class BodyTask: @unchecked Sendable {  // all state under the engine's lock
    struct Guarded {
        var task: UnsafeCurrentTask?  // the body's task, while it may be cancelled
        var cancelOnAttach = false  // it expired before its body's task started: cancel that task as it attaches
        var cancelling = false  // an expiry is cancelling it now (outside the lock)
        var waiters: CallWaiters?  // the body's end, waiting for that cancel to finish
        var onMainActor = false  // the body runs on the main actor (a handler there cannot wait for it)
        var windingDown: CallWaiters?  // an expiry waiting for the cancelled body to return
    }
    @exclusivity(unchecked) fileprivate var guarded = Guarded()  // only through `state[body]`, under the lock
    /// How long an expiry waits, at most, for the cancelled body to return before ending its assertion (``WindDown``).
    let windDownLimit: Double

    init(windDownLimit: Double) {
        self.windDownLimit = WindDown.limit(windDownLimit)
    }
}

/// Where a task stands, in one byte; ``state`` is the public form.
enum TaskStatus: UInt8 {
    case running, ended, expired, notGranted

    /// System refusals are `.notGranted(.notGranted)`; a manager's own are thrown by `beginTask`, never seen here.
    var state: BackgroundTaskState {
        switch self {
        case .running: .running
        case .ended: .ended
        case .expired: .expired
        case .notGranted: .notGranted(.notGranted)
        }
    }
}

/// A coalescing manager's one system assertion, shared by all its tasks.
final class SharedAssertion: AssertionHolder, @unchecked Sendable {  // mutable state only under `engine.lock`
    struct Guarded {
        var pendingUsers: [TaskRecord] = []  // waiting to learn whether the system grants it
        var beginWaiters: CallWaiters?  // woken once the begin's outcome is known
        var idleSince: TimeInterval?  // since when it has had no users (the linger)
        var staleReported = false  // its age was reported stale
    }
    @exclusivity(unchecked) fileprivate var guarded = Guarded()  // only through `state[shared]`, under the lock
}

/// The records' guarded fields, reachable only with the engine's state, which only `withLock(at:)` hands out: the
/// compiler sees that they are touched under the lock. (Unchecked storage: the lock makes each access exclusive.)
extension EngineState {
    subscript(call holder: AssertionHolder) -> AssertionCall {
        _read { yield holder.call }
        nonmutating _modify { yield &holder.call }
    }
    subscript(record: TaskRecord) -> TaskRecord.Guarded {
        _read { yield record.guarded }
        nonmutating _modify { yield &record.guarded }
    }
    subscript(shared: SharedAssertion) -> SharedAssertion.Guarded {
        _read { yield shared.guarded }
        nonmutating _modify { yield &shared.guarded }
    }
    subscript(body: BodyTask) -> BodyTask.Guarded {
        _read { yield body.guarded }
        nonmutating _modify { yield &body.guarded }
    }
}
