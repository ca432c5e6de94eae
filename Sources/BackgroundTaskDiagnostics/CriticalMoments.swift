@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// A moment a flight recorder must write at once, on the thread where it happens, because the process
/// may be suspended or terminated right after.
package enum CriticalMoment: Sendable {
    /// The last held task is ending (before the system hears of it).
    case lastTaskEnded
    /// An assertion is still held after its expiration handler returned (before the handlers are over).
    case heldAfterHandlers
}

/// Where a diagnosing backend or a tracer reports its ``CriticalMoment``s, for a flight recorder
/// (in `BackgroundTaskFieldTelemetry`) to write at once. Every other moment is written later, on the
/// recorder's queue.
package final class CriticalMoments: Sendable {
    private let handlers = Locked<[UInt64: @Sendable (CriticalMoment) -> Void]>([:])
    private let nextToken = Locked<UInt64>(0)

    package init() {}

    /// Adds a handler; returns the token that removes it.
    package func add(_ handler: @escaping @Sendable (CriticalMoment) -> Void) -> UInt64 {
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
    package func report(_ moment: CriticalMoment) {
        let current = handlers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for handler in current { handler(moment) }
    }
}

/// A source of a flight recorder's snapshots that reports its critical moments synchronously.
package protocol CriticalMomentReporting: AnyObject {
    /// Where the source reports them.
    var criticalMoments: CriticalMoments { get }
}
