import Dispatch
import Foundation

/// Where engines and diagnosing backends read the time and schedule timers.
package struct BackendClock: Sendable {
    /// The time, in seconds.
    package let now: @Sendable () -> TimeInterval
    /// Runs the work after a delay in seconds.
    package let schedule: @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void
    /// The backend's own clock (the simulator's virtual time): timers on it cost no thread and fire
    /// when the test moves the clock.
    package let isVirtual: Bool

    package init(
        now: @escaping @Sendable () -> TimeInterval,
        schedule: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void,
        isVirtual: Bool
    ) {
        self.now = now
        self.schedule = schedule
        self.isVirtual = isVirtual
    }

    /// The system's uptime and a global dispatch queue.
    package static let system = BackendClock(
        now: { ProcessInfo.processInfo.systemUptime },
        schedule: { delay, work in
            let delay = delay.isFinite ? min(max(delay, 0), 86_400) : 0
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: work)
        },
        isVirtual: false
    )

    /// The backend's clock if it has one (``BackgroundTaskBackendHooks``), otherwise ``system``.
    package static func of(_ backend: any BackgroundTaskBackend) -> BackendClock {
        backend.engineHooks.clock ?? .system
    }
}
