import BackgroundTaskKit
import Foundation

/// One outstanding assertion inside the simulator's state.
struct SimulatedTask {
    let identifier: BackgroundTaskIdentifier
    let name: String?
    let createdAt: TimeInterval
    /// `nil` when begun without one, or when ``SimulatorFault/noHandlerWhenLittleTimeLeft`` dropped it.
    var handler: (@MainActor @Sendable () -> Void)?
    /// Set once the handler has been called; it is never called again by an expiry.
    var handlerCalled = false
    /// For a handler called outside an expiry: the time by which the task must be ended.
    var endDeadline: TimeInterval?
    /// Whether the long-running warning has been printed.
    var warned = false
    /// Told by BackgroundTaskKit's engine after the grant.
    var callSite: BackgroundTaskCallSite?

    var assertion: SimulatedAssertion {
        SimulatedAssertion(identifier: identifier, name: name, createdAt: createdAt, callSite: callSite)
    }
}

/// A handler invocation in progress, for charging the virtual time it spends.
struct HandlerContext {
    /// Virtual time spent so far.
    var spent: TimeInterval = 0
}

/// An app timer waiting on the virtual clock.
struct SimulatedTimer: Comparable {
    let due: TimeInterval
    /// Orders timers due at the same instant by when they were scheduled.
    let sequence: Int
    let work: @Sendable () -> Void

    static func < (lhs: SimulatedTimer, rhs: SimulatedTimer) -> Bool {
        (lhs.due, lhs.sequence) < (rhs.due, rhs.sequence)
    }

    static func == (lhs: SimulatedTimer, rhs: SimulatedTimer) -> Bool {
        lhs.sequence == rhs.sequence
    }
}
