import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// What the stress's threads share: the backend, two managers, tasks handed between threads, and the
/// count of tasks dropped on purpose.
final class StressWorkers: Sendable {
    let backend: ExpiringBooksBackend
    let operations: Int
    let coalescing: BackgroundTaskManager
    let separate: BackgroundTaskManager
    /// Tasks begun on one thread and ended on another, or by the expiry.
    let handedOver = Locked<[SafeBackgroundTask]>([])
    /// Tasks released while running: each one a leak the safety net ends and reports.
    let dropped = Locked(0)
    /// `BGTaskScheduler`'s stand-in, and the scheduler face over it.
    let system = StressScheduler()
    let scheduler: SafeTaskScheduler
    /// Launched callback tasks handed between threads.
    let handedOverLaunches = Locked<[SafeScheduledTask]>([])

    init(backend: ExpiringBooksBackend, operations: Int) {
        self.backend = backend
        self.operations = operations
        scheduler = SafeTaskScheduler(backend: system)
        try? scheduler.register("async", windDownLimit: 0) {}
        let handedOver = handedOverLaunches
        try? scheduler.register("callback") { task in handedOver.withLock { $0.append(task) } }
        var configuration = BackgroundTaskManager.Configuration()
        configuration.maximumOutstandingTasks = 100_000
        coalescing = BackgroundTaskManager(backend: backend, configuration: configuration)
        configuration.coalescesAssertions = false
        separate = BackgroundTaskManager(backend: backend, configuration: configuration)
    }

    /// One thread's round: ``operations`` random operations over every face.
    func work(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var drops = 0
        for _ in 0..<operations {
            switch random.next() % 13 {
            case 0: SafeBackgroundTask.begin("Safe", backend: backend).end()
            case 1:
                _ = SafeBackgroundTask.begin("Dropped", backend: backend)  // a leak on purpose: bgtask:ignore BT010
                drops += 1
            case 2: (try? coalescing.beginTask("Coalesced"))?.end()
            case 3:
                if (try? coalescing.beginTask("Coalesced, dropped")) != nil { drops += 1 }
            case 4:
                let task = try? separate.beginTask("Separate")
                task?.end()
                task?.end()  // ending twice does nothing
            case 5:
                let scoped = ScopedBackgroundTask("Scoped", backend: backend)
                scoped.end()
            case 6: withBackgroundTask("With", backend: backend) { _ = random.next() }
            case 7:
                let task = SafeBackgroundTask.begin("Handed over", backend: backend, onExpiration: {})
                handedOver.withLock { $0.append(task) }
            case 8:
                let task = handedOver.withLock { $0.popLast() }
                task?.end()
            case 9:
                if random.next() % 50 == 0 { coalescing.endAll() }
            case 10:
                system.launch("async")  // the work completes the task in a task of its own
            case 11:
                system.launch("callback")  // handed over, completed by a thread or by the expiry
            default:
                let task = handedOverLaunches.withLock { $0.popLast() }
                if random.next() % 4 == 0 {
                    if task != nil { drops += 1 }  // dropped: the safety net completes it and reports a leak
                } else {
                    task?.complete(success: true)
                }
            }
        }
        dropped.withLock { $0 += drops }
    }

    /// Ends what the threads left running, at the end of a round.
    func endEverything() {
        let left = handedOver.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in left { task.end() }
        coalescing.endAll()
        separate.endAll()
        let launches = handedOverLaunches.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in launches { task.complete(success: true) }
    }
}

/// A small, fast, seedable generator, so that a round can be replayed.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
