/// Counts the expirations the package is handling right now, per system: the process on a device, each simulator in
/// tests (``BackgroundTaskBackendHooks/system``), so that one test's expiry never changes another's. A coalescing
/// manager's shared assertion lingers after its last task ends, but never while an expiry is in progress anywhere on
/// its system: a task begun and ended inside another's cleanup would leave an assertion outliving every handler, and
/// iOS would terminate the app.
enum ExpiriesInProgress {
    private struct Counts {
        var bySystem: [ObjectIdentifier?: Int] = [:]
    }
    private static let counts = Locked(Counts())

    static func enter(_ system: ObjectIdentifier?) {
        counts.withLock { $0.bySystem[system, default: 0] += 1 }
    }

    static func leave(_ system: ObjectIdentifier?) {
        counts.withLock { counts in
            let left = max(counts.bySystem[system, default: 0] - 1, 0)
            counts.bySystem[system] = left == 0 ? nil : left
        }
    }

    static func any(_ system: ObjectIdentifier?) -> Bool {
        counts.withLock { $0.bySystem[system] != nil }
    }
}
