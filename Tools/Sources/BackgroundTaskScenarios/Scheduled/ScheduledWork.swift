import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// Work of the scheduled-task scenarios: runs off the main actor (the expiry's handlers hold it) until cancelled,
/// holding a declared file lock, and takes a moment of real time to let go of it, as a database does.
enum ScheduledWork {
    /// Takes `lock` on `simulator`, works until cancelled (or `stop` says so), then unwinds for about 20 ms of real
    /// time and releases the lock.
    static func holdingLock(
        _ lock: String, on simulator: BackgroundTaskSimulator, started: Flag, stop: Flag? = nil
    ) async {
        let held = simulator.takeFileLock(lock)
        started.set()
        while !Task.isCancelled, !(stop?.isSet ?? false) { await pause(milliseconds: 1) }
        await pause(milliseconds: 20)
        held.release()
    }

    /// Waits (without blocking the main actor) until `flag` is set; at most about 10 s of real time.
    @MainActor
    static func waitUntil(_ flag: Flag) async {
        for _ in 0..<10_000 where !flag.isSet { await pause(milliseconds: 1) }
    }

    /// Suspends for about `milliseconds` of real time, cancelled or not, without blocking a thread.
    static func pause(milliseconds: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { continuation.resume() }
        }
    }

    /// A flag any thread may set once.
    final class Flag: Sendable {
        private let value = Guarded(false)
        var isSet: Bool { value.value }
        func set() { value.update { $0 = true } }
    }
}
