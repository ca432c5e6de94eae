import BackgroundTaskKit
import Foundation

/// Runs expiration handlers on the thread the injected faults ask for, and waits for them.
enum HandlerInvoker {
    /// Calls a main-actor handler on whatever thread this is.
    ///
    /// On the main actor it is an ordinary call. Off it, the handler's isolation is stripped on
    /// purpose: that is the misbehaviour ``SimulatorFault/handlerOffMainActor`` models, so that code
    /// can be tested against it. A global-actor function type has the same representation as a
    /// plain one, so the cast only drops the compile-time guarantee.
    static func call(_ handler: @escaping @MainActor @Sendable () -> Void) {
        if MainActorContext.isCurrent {
            MainActor.assumeIsolated { handler() }
        } else {
            let unisolated = unsafeBitCast(handler, to: (@Sendable () -> Void).self)
            unisolated()
        }
    }

    /// Runs `body` on the main actor and waits for it.
    ///
    /// From another thread this waits on the main queue, so a test that makes the simulator call a
    /// handler from a background thread must keep the main actor free (await, do not block it).
    static func runOnMainActor(_ body: @Sendable () -> Void) {
        if MainActorContext.isCurrent {
            body()
        } else {
            DispatchQueue.main.sync(execute: body)
        }
    }

    /// Runs `body` on a thread that is not the main actor's and waits for it.
    static func runOffMainActor(_ body: @escaping @Sendable () -> Void) {
        guard MainActorContext.isCurrent else {
            body()
            return
        }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }
}
