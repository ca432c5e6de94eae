import Foundation

/// A value guarded by a lock, with one way in: ``withLock(_:)``, whose closure never calls user code, a backend or an
/// observer. `NSLock` behaves the same on Linux and every Apple platform here (`Synchronization.Mutex` needs iOS 18).
/// > Important: Never make a closure (or optional closure, or tuple holding one) the state itself; keep it in a struct
/// > or class field (``LockedState/holdsClosureDirectly(_:)`` says why). Debug builds stop at such an initializer.
package final class Locked<State>: @unchecked Sendable {  // `state` is only touched in `withLock`, under `lock`
    private let lock = NSLock()
    // Exclusive through `lock`: the run-time check cost 81 instructions per `withLock` (callgrind, 2026-11-25).
    @exclusivity(unchecked) private var state: State

    /// Creates the guarded value.
    package init(_ state: State) {
        assert(
            !LockedState.holdsClosureDirectly(State.self),
            "Locked<\(State.self)>: a closure as a lock's state grows by two thunks at every access; keep it in a struct"
        )
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
