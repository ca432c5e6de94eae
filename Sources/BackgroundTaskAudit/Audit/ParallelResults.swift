import Foundation

/// Results written by several threads at distinct indexes, read once all are done.
final class ParallelResults<Value: Sendable>: @unchecked Sendable {  // `slots` is only touched under `lock`
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ value: Value, at index: Int) {
        lock.withLock { slots[index] = value }
    }

    /// Every stored value in index order (all must have been stored).
    var values: [Value] {
        lock.withLock { slots.compactMap { $0 } }
    }
}
