import Foundation

/// The work of several worker threads and its results, at distinct indexes; handed over, and let
/// go of, when the last worker is done.
final class ParallelResults<Value: Sendable>: @unchecked Sendable {  // state is only touched under `lock`
    private let lock = NSLock()
    private var slots: [Value?]
    private var workersLeft: Int
    private var work: (@Sendable (Int) -> Value)?

    init(count: Int, workers: Int, work: @escaping @Sendable (Int) -> Value) {
        slots = Array(repeating: nil, count: count)
        workersLeft = workers
        self.work = work
    }

    /// Runs the work for `index` (outside the lock) and stores its result.
    func run(at index: Int) {
        guard let work = lock.withLock({ self.work }) else { return }
        let value = work(index)
        lock.withLock { slots[index] = value }
    }

    /// Records that one worker is done; for the last one, every value in index order, after which
    /// this object holds nothing.
    func workerFinished() -> [Value]? {
        lock.withLock {
            workersLeft -= 1
            guard workersLeft == 0 else { return nil }
            let values = slots.compactMap { $0 }
            slots = []
            work = nil
            return values
        }
    }
}
