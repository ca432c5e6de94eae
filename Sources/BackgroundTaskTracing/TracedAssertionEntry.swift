@_spi(BackgroundTaskKitInternals) import BackgroundTaskDiagnostics
@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// One raw assertion the tracer saw begin: the ledger's entry, plus what only the tracer knows.
final class TracedAssertionEntry: RecordedEntry, @unchecked Sendable {  // mutable state only under the tracer's lock
    /// The system's raw identifier; `0` until the begin returns it.
    @exclusivity(unchecked) var rawIdentifier = 0
    /// Whether it was begun on the main thread (where the main actor runs).
    let beganOnMainThread: Bool
    /// The thread that began it (`pthread_self`, as a number).
    let threadID: UInt
    /// The caller's frames, when the tracer keeps backtraces.
    let backtrace: [UInt]
    /// Ends it without the tracer seeing the call: for the rescue.
    let application: any TracedApplication
    /// Begun with a handler (the owner's, or the tracer's own when rescue is on).
    let hasHandler: Bool
    /// The system has called its handler (wrapper) at least once.
    @exclusivity(unchecked) var handlerEntered = false
    /// Its owner's end has reached the tracer and not yet returned from the original implementation.
    @exclusivity(unchecked) var endInFlight = false
    /// Its begin has not returned from the original implementation yet (the identifier is unknown).
    @exclusivity(unchecked) var beginInFlight = true
    /// The handlers waiting for its begin or end in flight to land (the engine's mechanism).
    @exclusivity(unchecked) var callWaiters: CallWaiters?
    /// Calls of its handler wrapper running now (the system may call a handler twice, even at once).
    @exclusivity(unchecked) var handlerCallsRunning = 0
    /// Reported as still held after its handler (or the handlers of an expiry) returned.
    @exclusivity(unchecked) var heldAfterHandlers = false

    init(
        name: String?, callSite: BackgroundTaskCallSite, beganAt: TimeInterval,
        hasHandler: Bool, application: any TracedApplication, backtrace: [UInt]
    ) {
        self.beganOnMainThread = MainActorContext.isCurrent
        self.threadID = pthreadNumber()
        self.backtrace = backtrace
        self.application = application
        self.hasHandler = hasHandler
        super.init(number: 0, name: name, callSite: callSite, beganAt: beganAt)
    }
}

extension TracedAssertionEntry {
    /// Under the tracer's lock, as its begin or end lands: the handlers to wake after unlocking.
    func takeCallWaiters() -> CallWaiters? {
        defer { callWaiters = nil }
        return callWaiters
    }

    /// Where its handler stands, from its flags (the returned one is the ledger entry's own).
    var handlerState: TracedAssertion.HandlerState {
        if recorderMarks.expiryHandlerReturned { return .returned }
        if handlerEntered { return .running }
        return hasHandler ? .waiting : .none
    }
}

/// The calling thread as a number: `pthread_self()`, whose type differs between platforms.
func pthreadNumber() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
