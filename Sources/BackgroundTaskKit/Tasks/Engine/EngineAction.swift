/// What the engine does once its lock is released.
enum EngineAction {
    case none
    /// Call the backend's begin for this holder, then act on the result.
    case begin(AssertionHolder)
    /// Call the backend's end for this holder's identifier, then mark it ended and wake its waiters.
    case end(AssertionHolder, BackgroundTaskIdentifier, bySafetyNet: Bool)
    /// Several ends (``TaskEngine/endAll()``).
    case ends([(AssertionHolder, BackgroundTaskIdentifier)])
    /// Wait (bounded) for the shared assertion's begin in flight on another thread.
    case awaitSharedBegin(TaskRecord, SharedAssertion, CallWaiters)
    /// Wake `count` waiters.
    case wake(CallWaiters, count: Int)
    /// The shared assertion has no users left: decide, outside the lock, whether it may linger.
    case considerLinger(SharedAssertion)
    /// Start the linger timer.
    case scheduleLinger(after: Double)
    /// The shared assertion has reached the renewal age: decide, outside the lock, whether to renew.
    case considerRenewal(SharedAssertion)
    /// Start the timer that renews the shared assertion before it grows old.
    case scheduleRenewalCheck(after: Double)
    /// Several of the above, in order.
    case many([EngineAction])
}

/// Cleanups an operation dropped under the lock. They are released after unlocking: releasing one
/// may run `deinit`s of user objects, which may call back into the engine.
struct DroppedCleanups {
    private var first: ExpirationCleanup?
    private var more: [ExpiringTask.Cleanup] = []

    mutating func add(_ cleanup: ExpirationCleanup?) {
        guard let cleanup else { return }
        if first == nil { first = cleanup } else { more.append(ExpiringTask.Cleanup(run: cleanup)) }
    }
}

/// A task an expiry expires, and its cleanup.
///
/// Closures are kept in arrays inside structs: an array of bare closures stores each one behind a
/// reabstraction thunk, one allocation per element on the way in and another on the way out.
struct ExpiringTask {
    /// A cleanup, as an array element.
    struct Cleanup {
        let run: ExpirationCleanup?
    }

    let record: TaskRecord
    let cleanup: Cleanup
}

/// What one expiration handler does once the lock is released.
struct ExpiryPlan {
    /// It is the first handler for these assertions: it runs cleanups and ends.
    var started = false
    /// Tasks whose cleanups run, in begin order.
    var expiring: [ExpiringTask] = []
    /// Async bodies to cancel, before the cleanups run.
    var cancels: [(BodyTask, UnsafeCurrentTask)] = []
    /// Whether observers want the handler entered/exited events.
    var observed = false
    /// Assertions to end.
    var ends: [(AssertionHolder, BackgroundTaskIdentifier)] = []
    /// Calls in flight on other threads to wait for, each with its bound in seconds.
    var waits: [(CallWaiters, Double)] = []
}
