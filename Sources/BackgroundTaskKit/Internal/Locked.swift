import Foundation

/// A value guarded by a lock, with one way in: ``withLock(_:)``.
///
/// `NSLock` compiles and behaves the same on Linux and on every Apple platform at this package's
/// deployment targets (`Synchronization.Mutex` needs iOS 18), so the code tested on Linux is the
/// code that ships.
///
/// The rule of this package: compute what to do under the lock, do it after. The closure passed to
/// ``withLock(_:)`` must never call user code, a backend or an observer.
package final class Locked<State>: @unchecked Sendable {  // `state` is only touched in `withLock`, under `lock`
    private let lock = NSLock()
    private var state: State

    /// Creates the guarded value.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

extension Locked where State: Sendable {
    /// A copy of the current state.
    package var value: State {
        withLock { $0 }
    }
}
