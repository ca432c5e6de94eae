import BackgroundTaskKit
import Foundation

/// A file lock (or SQLite database lock) the app under test holds, as the simulator sees it: iOS terminates an app
/// that is suspended while it holds one, with `0xdead10cc`. Take it with ``BackgroundTaskSimulator/takeFileLock(_:)``
/// where the code under test locks a file, and release it where the code unlocks it.
///
/// ```swift
/// let lock = simulator.takeFileLock("Library.sqlite")
/// defer { lock.release() }
/// try await database.compact()
/// ```
public final class SimulatedFileLock: Sendable {
    /// The name given when it was taken.
    public let name: String
    private let number: Int
    private let simulator: BackgroundTaskSimulator

    init(name: String, number: Int, simulator: BackgroundTaskSimulator) {
        self.name = name
        self.number = number
        self.simulator = simulator
    }

    /// Releases the lock. Idempotent and callable from any thread; releasing it after the app was terminated does
    /// nothing.
    public func release() {
        simulator.state.withLock { state in
            guard state.fileLocks.removeValue(forKey: number) != nil, state.termination == nil else { return }
            state.record(.fileLockReleased(name: name))
        }
    }

    /// Whether the lock is still held.
    public var isHeld: Bool {
        simulator.state.withLock { $0.fileLocks[number] != nil }
    }
}

extension BackgroundTaskSimulator {
    /// Declares that the app takes a file lock now, to be released with ``SimulatedFileLock/release()``. If the app is
    /// suspended while it holds one, the simulator terminates it with ``TerminationCode/suspendedWithLockedFile``
    /// (`0xdead10cc`), as iOS does to an app suspended while holding a file or SQLite lock in a shared container.
    ///
    /// Callable from any thread. On a device this applies to files in an app group's shared container; model the
    /// locks of those files.
    /// - Parameter name: A name for the lock, shown in the event log; empty is allowed.
    /// - Returns: The lock.
    public func takeFileLock(_ name: String) -> SimulatedFileLock {
        let number = state.withLock { state in
            let number = state.nextFileLock
            state.nextFileLock += 1
            guard state.termination == nil else { return number }
            state.fileLocks[number] = name
            state.record(.fileLockTaken(name: name))
            return number
        }
        return SimulatedFileLock(name: name, number: number, simulator: self)
    }

    /// The names of the file locks held now, in the order they were taken.
    public var heldFileLocks: [String] {
        state.withLock { state in state.fileLocks.keys.sorted().compactMap { state.fileLocks[$0] } }
    }
}
