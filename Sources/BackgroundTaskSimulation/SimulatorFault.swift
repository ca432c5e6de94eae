/// A misbehaviour of the system that a ``BackgroundTaskSimulator`` can inject, to prove that code
/// survives what devices do now and then.
///
/// ```swift
/// let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
/// ```
///
/// Faults stay in force until removed from ``BackgroundTaskSimulator/faults``.
public enum SimulatorFault: Hashable, Sendable {
    /// `beginBackgroundTask` returns "not granted". With `callingHandler`, the expiration handler is
    /// then also called on the main actor, asynchronously: when the clock next moves.
    case notGranted(callingHandler: Bool)
    /// The expiration handler runs synchronously inside `beginBackgroundTask`, before the caller has
    /// the identifier (as when a task is begun off the main thread just as time runs out). The task
    /// must then be ended within the handler time budget.
    case handlerBeforeBeginReturns
    /// Expiration handlers are called on a thread other than the main thread (field reports describe
    /// this). The simulator waits for the handler to return.
    case handlerOffMainActor
    /// Every expiration handler is called twice in a row.
    case handlerTwice
    /// A task begun in the background with less than
    /// ``SimulatorConfiguration/minimumTimeForExpirationHandler`` remaining gets no expiration
    /// handler, as WWDC20 warns.
    case noHandlerWhenLittleTimeLeft
    /// Calls of the given kinds made off the main thread are held just before they reach the system,
    /// so that a test can place the expiration handler exactly between two steps of app code (a
    /// queue's `!= .invalid` check and its end; an end made "just as" time runs out).
    ///
    /// A held call goes on when the test calls ``BackgroundTaskSimulator/releaseHeldCalls()``, when the
    /// handlers of the next expiry have returned (before the system looks at what is still held), just
    /// before the watchdog checks a handler's deadline or the end of the budget, or
    /// when an expiration handler has been running for 50 ms of real time (a
    /// handler that waits for the call, as BackgroundTaskKit's do, lets it finish, as a real thread
    /// would). ``BackgroundTaskSimulator/waitForHeldCalls(_:timeout:)`` waits until calls are held.
    ///
    /// Only calls made on threads and queues are held, never those made inside a Swift task: holding one would block
    /// a thread of the cooperative pool (as many as cores), and with it every task of the process, the test's own
    /// awaits included.
    case holdOffMainCalls(HeldCallKinds)
}

/// Which calls ``SimulatorFault/holdOffMainCalls(_:)`` holds.
public enum HeldCallKinds: Hashable, Sendable {
    /// `endBackgroundTask` calls.
    case ends
    /// `beginBackgroundTask` calls.
    case begins
    /// Both.
    case beginsAndEnds

    var holdsEnds: Bool { self != .begins }
    var holdsBegins: Bool { self != .ends }
}
