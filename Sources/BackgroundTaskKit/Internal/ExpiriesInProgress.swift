/// Counts, across the process, the expirations the package is handling right now. A coalescing manager's shared
/// assertion lingers after its last task ends, but never while an expiry is in progress anywhere: a task begun and
/// ended inside another's cleanup would leave an assertion outliving every handler, and iOS would terminate the app.
enum ExpiriesInProgress {
    private static let count = Locked(0)

    static func enter() {
        count.withLock { $0 += 1 }
    }

    static func leave() {
        count.withLock { $0 = max($0 - 1, 0) }
    }

    static var any: Bool {
        count.withLock { $0 > 0 }
    }
}
