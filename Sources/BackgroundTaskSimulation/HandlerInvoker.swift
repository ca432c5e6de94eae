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
        MainActorContext.callOnAnyThread(handler)
    }

    /// Runs `body` on the main thread and waits for it: at once when already there; from another
    /// thread through `pump`, so it runs when the main thread is free or, at the latest, before the
    /// simulator's clock next moves.
    static func runOnMainActor(_ body: @escaping @Sendable () -> Void, pump: MainThreadPump) {
        if MainActorContext.isCurrent {
            body()
        } else {
            let done = DispatchSemaphore(value: 0)
            pump.hop {
                body()
                done.signal()
            }
            done.wait()
        }
    }

    /// Runs `body` off the main thread and waits for it: on the calling thread when it is not the
    /// main thread; from the main thread on a new thread, while the main thread runs the work
    /// `body` hops to the main actor through `pump` (see ``MainThreadPump``). Returns whether `body`
    /// returned within `timeout` seconds of real time, or why the main thread stopped waiting for it.
    static func runOffMainActor(
        _ body: @escaping @Sendable () -> Void,
        pump: MainThreadPump,
        timeout: TimeInterval
    ) -> MainThreadPump.Outcome {
        guard MainActorContext.isCurrent else {
            body()
            return .finished
        }
        return pump.wait(for: body, timeout: timeout)
    }
}
