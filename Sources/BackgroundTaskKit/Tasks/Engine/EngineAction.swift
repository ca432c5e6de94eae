/// What the engine does once its lock is released: `begin` calls the backend's begin for the holder and acts on the
/// result; `end` calls its end, marks it ended, wakes its waiters; `ends`, several (`endAll()`); `awaitSharedBegin`
/// waits (bounded) for the shared assertion's begin in flight on another thread; `wake` wakes `count` waiters;
/// `considerLinger` and `considerRenewal` decide, outside the lock, whether the idle shared assertion may linger or the
/// one at the renewal age is renewed; the `schedule` cases start the linger or renewal timer; `many`, several in order.
enum EngineAction {
    case none
    case begin(AssertionHolder)
    case end(AssertionHolder, BackgroundTaskIdentifier, bySafetyNet: Bool)
    case ends([(AssertionHolder, BackgroundTaskIdentifier)])
    case awaitSharedBegin(TaskRecord, SharedAssertion, CallWaiters)
    case wake(CallWaiters, count: Int)
    case considerLinger(SharedAssertion)
    case scheduleLinger(after: Double)
    case considerRenewal(SharedAssertion)
    case scheduleRenewalCheck(after: Double)
    case many([EngineAction])
}

/// Cleanups dropped under the lock, released after it: a release may run user `deinit`s calling back into the engine.
struct DroppedCleanups {
    private var first: ExpirationCleanup?
    private var more: [ExpiringTask.Cleanup] = []

    mutating func add(_ cleanup: ExpirationCleanup?) {
        guard let cleanup else { return }
        if first == nil { first = cleanup } else { more.append(ExpiringTask.Cleanup(run: cleanup)) }
    }
}

/// A task an expiry expires, and its cleanup. Closures are kept in arrays inside structs: an array of bare closures
/// stores each behind a reabstraction thunk, one allocation per element on the way in and another on the way out.
struct ExpiringTask {
    /// A cleanup, as an array element.
    struct Cleanup {
        let run: ExpirationCleanup?
    }

    let record: TaskRecord
    let cleanup: Cleanup
}

/// What one expiration handler does once the lock is released: `started` if it is the first handler for these
/// assertions (it runs cleanups and ends), the tasks whose cleanups run in begin order (`expiring`), async bodies to
/// cancel before them (`cancels`), whether observers want the handler entered/exited events (`observed`), assertions to
/// end (`ends`), and calls in flight on other threads to wait for, each with its bound in seconds (`waits`).
struct ExpiryPlan {
    var started = false
    var expiring: [ExpiringTask] = []
    var cancels: [(BodyTask, UnsafeCurrentTask)] = []
    var observed = false
    var ends: [(AssertionHolder, BackgroundTaskIdentifier)] = []
    var waits: [(CallWaiters, Double)] = []
}
