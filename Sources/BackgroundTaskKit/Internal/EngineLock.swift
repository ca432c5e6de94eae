import Foundation

/// The engine's lock: a `pthread_mutex_t` (the same on Linux and every Apple platform) that spins briefly before it
/// sleeps: critical sections are a few dozen instructions, so a waiter almost always gets in after a short spin, where
/// sleeping costs a system call and a context switch. Nothing under it calls user code, a backend or an observer.
package final class EngineLock: @unchecked Sendable {  // the mutex is only touched through pthread calls
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private static let spins = 64  // failed `trylock`s before blocking

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
