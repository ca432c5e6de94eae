import BackgroundTaskKit
import Foundation

/// The app's threads the simulator is holding now: at the gate of
/// ``SimulatorFault/holdOffMainCalls(_:)``, or frozen because the app is suspended.
///
/// A driver that runs app code on threads of its own (the promise checker) waits for each of them to
/// finish or park before it moves the clock, as a device's thread would take microseconds.
final class ParkedThreads: Sendable {
    private let parked = Locked<[ObjectIdentifier: Int]>([:])

    /// The calling thread is parked until ``leave()``.
    func enter() {
        let thread = ObjectIdentifier(Thread.current)
        parked.withLock { $0[thread, default: 0] += 1 }
    }

    /// The calling thread goes on.
    func leave() {
        let thread = ObjectIdentifier(Thread.current)
        parked.withLock { parked in
            let count = (parked[thread] ?? 1) - 1
            parked[thread] = count > 0 ? count : nil
        }
    }

    /// The threads parked now.
    var threads: Set<ObjectIdentifier> { parked.withLock { Set($0.keys) } }
}
