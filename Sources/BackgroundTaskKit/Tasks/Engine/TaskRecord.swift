import Foundation

/// A user cleanup, run on the main actor when the task expires.
package typealias ExpirationCleanup = @MainActor @Sendable () -> Void

/// Holds (or will hold) one system assertion of an engine: a task in per-task mode, or a coalescing manager's shared
/// assertion. The backend's expiration handler captures only this object.
class AssertionHolder: TaskListEntry, @unchecked Sendable {  // mutable state only under `engine.lock`
    let engine: TaskEngine
    /// The backend its assertion is begun and ended through.
    let backend: any BackgroundTaskBackend
    /// Its calls to the backend. (Exclusivity is the engine lock's job: no run-time check.)
    @exclusivity(unchecked) var call = AssertionCall()

    init(
        engine: TaskEngine,
        backend: any BackgroundTaskBackend,
        number: UInt64,
        name: String?,
        callSite: BackgroundTaskCallSite,
        beganAt: TimeInterval
    ) {
        self.engine = engine
        self.backend = backend
        super.init(number: number, name: name, callSite: callSite, beganAt: beganAt)
    }
}

/// One logical task: what every face holds. In per-task mode it holds its own assertion; coalescing, its manager's.
final class TaskRecord: AssertionHolder, @unchecked Sendable {  // mutable state only under `engine.lock`
    @exclusivity(unchecked) var cleanup: ExpirationCleanup?  // the user's, until the task finishes
    @exclusivity(unchecked) var status = TaskStatus.running
    @exclusivity(unchecked) var isCoalesced = false  // it uses its manager's shared assertion
    @exclusivity(unchecked) var body: BodyTask?  // an async `withBackgroundTask` body to cancel on expiry
}

/// The task running an async `withBackgroundTask` body, which an expiry cancels. Swift offers no handle to cancel a
/// task from elsewhere but `UnsafeCurrentTask`, which must not be used once the task may be gone, so it is used only
/// while attached: the body's task attaches it when it starts (the assertion was begun before, by the caller), and the
/// body's end detaches it, waiting for a cancel in progress, before the body's task can finish.
final class BodyTask: @unchecked Sendable {  // all state under the engine's lock
    @exclusivity(unchecked) var task: UnsafeCurrentTask?  // the body's task, while it may be cancelled
    /// The task expired before its body's task started: that task is cancelled as it attaches.
    @exclusivity(unchecked) var cancelOnAttach = false
    @exclusivity(unchecked) var cancelling = false  // an expiry is cancelling it now (outside the lock)
    @exclusivity(unchecked) var waiters: CallWaiters?  // the body's end, waiting for that cancel to finish

    init() {}
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
    /// Tasks waiting to learn whether the system grants it (the first, and any joining while its begin is in flight).
    @exclusivity(unchecked) var pendingUsers: [TaskRecord] = []
    @exclusivity(unchecked) var beginWaiters: CallWaiters?  // woken once the begin's outcome is known
    @exclusivity(unchecked) var idleSince: TimeInterval?  // since when it has had no users (the linger)
    @exclusivity(unchecked) var staleReported = false  // its age was reported stale
}
