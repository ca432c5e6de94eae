import Foundation

/// Results written by several worker threads at distinct indexes, read once all are done.
final class ParallelResults<Value: Sendable>: @unchecked Sendable {  // state is only touched under `lock`
    private let lock = NSLock()
    private var slots: [Value?]
    private var workersLeft: Int

    init(count: Int, workers: Int) {
        slots = Array(repeating: nil, count: count)
        workersLeft = workers
    }

    func store(_ value: Value, at index: Int) {
        lock.withLock { slots[index] = value }
    }

    /// Records that one worker is done; `true` for the last one.
    func workerFinished() -> Bool {
        lock.withLock {
            workersLeft -= 1
            return workersLeft == 0
        }
    }

    /// Every stored value in index order (all must have been stored).
    var values: [Value] {
        lock.withLock { slots.compactMap { $0 } }
    }
}
