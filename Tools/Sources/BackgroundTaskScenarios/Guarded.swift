import Foundation

/// A value that any thread may read or change, under a lock: what a scenario's observer collects, a flag
/// its work sets.
final class Guarded<Value: Sendable>: @unchecked Sendable {  // `stored` is only touched while `lock` is held
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    /// The value now.
    var value: Value { lock.withLock { stored } }

    /// Changes the value under the lock; `change` must not call out.
    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
