import Foundation

/// The identity of the calling thread, cheaply (`pthread_self`, no `Thread` object): tells an
/// expiration handler that runs *inside* a system call made on its own thread (where it must not
/// wait for that call) from one that runs beside it on another thread.
struct CallingThread {
    private let thread: pthread_t

    /// The calling thread.
    static var current: CallingThread { CallingThread(thread: pthread_self()) }

    func isSame(as other: CallingThread) -> Bool {
        pthread_equal(thread, other.thread) != 0
    }
}
