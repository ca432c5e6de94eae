/// What the engine does once its lock is released: calls the backend's begin or end(s) and acts on the result, waits
/// (bounded) for a shared begin in flight, wakes waiters, decides whether the idle shared assertion lingers or an old
/// one is renewed, starts a timer, or several of these in order.
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

/// What one expiration handler does after the lock: whether it is the first for these assertions (`started`), cleanups
/// to run in begin order, async bodies to cancel first and wait for (``WindDown``), whether observers listen,
/// assertions to end, and calls in flight on other threads to wait for, each with its bound in seconds.
struct ExpiryPlan {
    var started = false
    var expiring: [ExpiringTask] = []
    var cancels: [(BodyTask, UnsafeCurrentTask)] = []
    var windDowns: [(waiters: CallWaiters, limit: Double, onMainActor: Bool)] = []  // cancelled bodies to wait for
    var onMainActor = false  // the handler runs on the main actor: a body there cannot wind down meanwhile
    var observed = false
    var ends: [(AssertionHolder, BackgroundTaskIdentifier)] = []
    var waits: [(CallWaiters, Double)] = []
}
