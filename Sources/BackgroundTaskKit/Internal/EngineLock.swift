import Foundation

/// The engine's lock: a `pthread_mutex_t` that spins briefly before it sleeps.
///
/// Critical sections in the engine are a few dozen instructions, so under contention (two threads
/// beginning and ending tasks of one manager) a waiter is almost always let in after a short spin;
/// sleeping at once would cost a system call and a context switch per collision. `pthread_mutex_t`
/// behaves the same on Linux and on every Apple platform at this package's deployment targets, so
/// the code tested here is the code that ships.
///
/// The rule of this package still holds: compute under the lock, act after. Nothing called under it
/// may call user code, a backend or an observer.
package final class EngineLock: @unchecked Sendable {  // the mutex is only touched through pthread calls
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Failed `trylock`s before blocking.
    private static let spins = 64

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() {
        if pthread_mutex_trylock(mutex) == 0 { return }
        for _ in 0..<Self.spins where pthread_mutex_trylock(mutex) == 0 {
            return
        }
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
