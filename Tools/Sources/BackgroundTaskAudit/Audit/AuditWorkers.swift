import Foundation

/// The audit's own worker threads, one per processor, started once and reused by every audit of the
/// process. Reading and checking files is synchronous CPU work: it runs here, neither on Swift
/// concurrency's cooperative pool nor on Dispatch's global queues, which other code of the process
/// (an app's queues, a test run's other tests) may need meanwhile. Reusing the threads also keeps
/// the allocator's per-thread memory from growing with every audit.
final class AuditWorkers: @unchecked Sendable {  // `jobs` is only touched under `condition`
    static let shared = AuditWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount))

    let threadCount: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init(threads: Int) {
        threadCount = threads
        for _ in 0..<threads {
            let thread = Thread { [unowned self] in self.serve() }
            thread.stackSize = 8 << 20
            thread.name = "bgtask-audit"
            thread.start()
        }
    }

    /// Runs `job` on one of the workers, after the jobs submitted before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
