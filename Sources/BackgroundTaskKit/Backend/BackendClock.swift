import Dispatch
import Foundation

/// Where engines and diagnosing backends read the time and schedule timers.
package struct BackendClock: Sendable {
    /// Reads the time; `nil`: the system's monotonic clock, read directly.
    private let read: (@Sendable () -> TimeInterval)?
    /// Runs the work after a delay in seconds.
    package let schedule: @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void
    /// A backend's own clock (the simulator's virtual time): its timers cost no thread and fire as the test moves it.
    package let isVirtual: Bool

    package init(
        now: @escaping @Sendable () -> TimeInterval,
        schedule: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void,
        isVirtual: Bool
    ) {
        self.read = now
        self.schedule = schedule
        self.isVirtual = isVirtual
    }

    private init(
        schedule: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void,
        isVirtual: Bool
    ) {
        self.read = nil
        self.schedule = schedule
        self.isVirtual = isVirtual
    }

    @inline(__always)
    package func now() -> TimeInterval {
        if let read { return read() }
        return Self.monotonicNow()
    }

    /// This clock with its time read by `now` instead.
    package func reading(_ now: @escaping @Sendable () -> TimeInterval) -> BackendClock {
        BackendClock(now: now, schedule: schedule, isVirtual: isVirtual)
    }

    /// This clock with its timers run by `schedule` instead.
    package func scheduling(
        _ schedule: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void
    ) -> BackendClock {
        BackendClock(now: { self.now() }, schedule: schedule, isVirtual: isVirtual)
    }

    /// Monotonic seconds (`CLOCK_MONOTONIC`, one call on Linux and Apple platforms alike), bypassing `ProcessInfo`.
    @inline(__always)
    static func monotonicNow() -> TimeInterval {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }

    package static let system = BackendClock(  // the system's monotonic clock and a global dispatch queue
        schedule: { delay, work in
            let delay = delay.isFinite ? min(max(delay, 0), 86_400) : 0
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: work)
        },
        isVirtual: false
    )

    /// The backend's clock if it has one (``BackgroundTaskBackendHooks``), otherwise ``system``.
    package static func of(_ backend: any BackgroundTaskBackend) -> BackendClock {
        backend.engineHooks?.clock ?? .system
    }
}
