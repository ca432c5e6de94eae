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
    /// Virtual time charged so far, in whole nanoseconds, so that durations that add up to the
    /// budget exactly (3.7 s + 1.3 s of a 5 s budget) are within it, whatever floating point makes of
    /// the sum.
    var spentNanoseconds: Int64 = 0
    /// The watchdog already acted on this account's overrun (under the debugger, which lets the
    /// handlers run on).
    var overrunReported = false
}

/// `seconds` in whole nanoseconds, rounded; NaN and negative values are 0, huge ones `Int64.max`.
func wholeNanoseconds(_ seconds: TimeInterval) -> Int64 {
    guard seconds > 0 else { return 0 }
    let nanoseconds = (seconds * 1e9).rounded()
    return nanoseconds >= 9.2e18 ? Int64.max : Int64(nanoseconds)
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
