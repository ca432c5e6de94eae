import Foundation

/// The calling thread's identity, cheaply (`pthread_self`, no `Thread` object): tells an expiration handler running
/// *inside* a system call made on its own thread (where it must not wait for that call) from one running beside it.
struct CallingThread {
    private let thread: pthread_t

    static var current: CallingThread { CallingThread(thread: pthread_self()) }

    func isSame(as other: CallingThread) -> Bool {
        pthread_equal(thread, other.thread) != 0
    }
}
