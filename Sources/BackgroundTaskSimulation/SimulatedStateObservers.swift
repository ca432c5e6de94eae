import BackgroundTaskKit

/// The observers of a simulator's app state (``BackgroundTaskSimulator/observeBackgroundState(_:)``).
final class SimulatedStateObservers: Sendable {
    private let observers = Locked<[Int: @MainActor @Sendable (Bool) -> Void]>([:])
    private let nextKey = Locked(0)

    func add(_ handler: @escaping @MainActor @Sendable (Bool) -> Void) -> Int {
        let key = nextKey.withLock { key in
            defer { key += 1 }
            return key
        }
        observers.withLock { $0[key] = handler }
        return key
    }

    func remove(_ key: Int) {
        _ = observers.withLock { $0.removeValue(forKey: key) }
    }

    func contains(_ key: Int) -> Bool {
        observers.withLock { $0[key] != nil }
    }

    /// Calls every observer, in registration order, on the main actor, outside the lock.
    @MainActor
    func notify(inBackground: Bool) {
        let handlers = observers.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(inBackground) }
    }
}
