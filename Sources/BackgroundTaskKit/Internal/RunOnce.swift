/// A closure that runs at most once, whichever thread asks first: later ``run()`` calls do nothing. What an observer
/// handle's `remove()` and an observation's `cancel()` need. The closure sits in a struct field behind the lock, never
/// as the lock's state itself (see ``LockedState``).
package final class RunOnce: Sendable {
    private struct Pending {
        var action: (@Sendable () -> Void)?
    }

    private let pending: Locked<Pending>

    /// Keeps `action` until the first ``run()``.
    package init(_ action: @escaping @Sendable () -> Void) {
        pending = Locked(Pending(action: action))
    }

    /// Runs the action if no call has yet; it runs after the lock is released.
    package func run() {
        let action = pending.withLock { pending in
            defer { pending.action = nil }
            return pending.action
        }
        action?()
    }
}
