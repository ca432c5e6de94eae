import Foundation

/// The moments a ``FlightRecorder`` must write at once, on the thread where they happen, because the
/// process may be suspended or terminated right after: the last held task ending (before the system
/// hears of it), and an assertion held after its expiration handler (before the handlers are over).
/// Every other moment is written later, on the recorder's queue.
package final class CriticalMoments: Sendable {
    private let handlers = Locked<[UInt64: @Sendable (FlightRecorderSnapshot.Moment) -> Void]>([:])
    private let nextToken = Locked<UInt64>(0)

    package init() {}

    /// Adds a handler; returns the token that removes it.
    package func add(_ handler: @escaping @Sendable (FlightRecorderSnapshot.Moment) -> Void) -> UInt64 {
        let token = nextToken.withLock { token in
            token += 1
            return token
        }
        handlers.withLock { $0[token] = handler }
        return token
    }

    /// Removes a handler.
    package func remove(_ token: UInt64) {
        handlers.withLock { _ = $0.removeValue(forKey: token) }
    }

    /// Calls every handler, on this thread, never under a lock.
    package func report(_ moment: FlightRecorderSnapshot.Moment) {
        let current = handlers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for handler in current { handler(moment) }
    }
}

/// A ``FlightRecorderSource`` that reports its critical moments synchronously.
package protocol CriticalMomentReporting: AnyObject {
    /// Where the source reports them.
    var criticalMoments: CriticalMoments { get }
}
