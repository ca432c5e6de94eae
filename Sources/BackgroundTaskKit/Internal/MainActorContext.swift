import Dispatch
import Foundation

/// Tells, without trapping, whether the caller runs on the main actor: "the main thread, or a main-queue block", since
/// after `dispatchMain()` (a command-line tool, Swift Testing on Linux) the main queue runs on a worker thread.
package enum MainActorContext {
    /// Whether code may assume main-actor isolation here (`MainActor.assumeIsolated` succeeds).
    package static var isCurrent: Bool {
        isMainThread || DispatchQueue.getSpecific(key: mainQueueKey.value) == true
    }

    /// `Thread.isMainThread`, asked once per thread (it never changes; on Linux asking costs `getpid` and `gettid`).
    static var isMainThread: Bool {
        let known = Int(bitPattern: pthread_getspecific(mainThreadKey))
        if known != 0 { return known == 1 }
        let isMain = Thread.isMainThread
        pthread_setspecific(mainThreadKey, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
        return isMain
    }

    /// Calls a main-actor handler on this thread, without a check that would trap off the main actor: how the package
    /// runs a handler where the system (or a simulated fault) called it. On the main actor it is an ordinary call; off
    /// it the handler's isolation is stripped (iOS has been seen to call handlers off the main thread). A global-actor
    /// function type is represented like a plain one, so the cast only drops the compile-time guarantee.
    package static func callOnAnyThread(_ handler: @escaping @MainActor @Sendable () -> Void) {
        if isCurrent {
            MainActor.assumeIsolated { handler() }
        } else {
            unsafeBitCast(handler, to: (@Sendable () -> Void).self)()
        }
    }
}

/// Per thread: 0 not asked yet, 1 the main thread, 2 another thread.
private let mainThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

// Set on the main queue once, when first needed; boxed, as not every SDK declares this immutable token `Sendable`.
private let mainQueueKey: UncheckedSendableBox<DispatchSpecificKey<Bool>> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return UncheckedSendableBox(key)
}()
