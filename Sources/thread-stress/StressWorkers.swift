import BackgroundTaskKit
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

    init(backend: ExpiringBooksBackend, operations: Int) {
        self.backend = backend
        self.operations = operations
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
            switch random.next() % 10 {
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
            default:
                if random.next() % 50 == 0 { coalescing.endAll() }
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
