import Dispatch
import Foundation

/// A backend with a clock of its own (the simulator's virtual time): engines and diagnosing backends
/// on it measure task ages and run their timers in that time, so that diagnostics in tests line up
/// with the simulated system's own warnings.
package protocol ClockProvidingBackend: BackgroundTaskBackend {
    /// The backend's time, in seconds.
    func currentTime() -> TimeInterval
    /// Runs `work` once `delay` seconds of the backend's time have passed.
    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void)
}

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

    /// The backend's clock if it has one, otherwise the system's uptime and a global dispatch queue.
    package static func of(_ backend: any BackgroundTaskBackend) -> BackendClock {
        if let timed = backend as? any ClockProvidingBackend {
            return BackendClock(
                now: { timed.currentTime() },
                schedule: { timed.schedule(after: $0, $1) },
                isVirtual: true
            )
        }
        return BackendClock(
            now: { ProcessInfo.processInfo.systemUptime },
            schedule: { delay, work in DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: work) },
            isVirtual: false
        )
    }
}
