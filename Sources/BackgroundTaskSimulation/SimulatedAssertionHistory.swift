import BackgroundTaskKit
import Foundation

/// The life of one assertion the simulated system granted: when it began, whether the system called
/// its expiration handler, how it ended, and how long it was held.
///
/// ``BackgroundTaskSimulator/assertionHistory`` lists them in begin order; the failure message of
/// every `expect…` helper ends with them, so a failing test says how long each assertion kept the app
/// awake. An assertion held until the system expired it is the symptom of a lost end (an early return,
/// a completion that never comes): the app stays awake until its time runs out, and is suspended
/// instead of killed if a handler ends it, so nothing crashes; ``BackgroundTaskSimulator/expectNoExpiry()``
/// catches it.
public struct SimulatedAssertionHistory: Equatable, Sendable, CustomStringConvertible {
    /// How an assertion's life ended.
    public enum Ending: Equatable, Sendable {
        /// It is still held.
        case stillHeld
        /// The app ended it.
        case ended(at: TimeInterval)
        /// One of BackgroundTaskKit's safety nets ended it (a `SafeBackgroundTask` or a manager's
        /// task released while running): the work it covered was lost track of, which is a leak.
        case endedBySafetyNet(at: TimeInterval)
        /// The app was terminated while it was held.
        case heldAtTermination(at: TimeInterval)
    }

    /// The assertion.
    public var assertion: SimulatedAssertion
    /// Whether it has an expiration handler: `false` when the caller passed none, or when the system
    /// gave it none (``SimulatorFault/noHandlerWhenLittleTimeLeft``).
    public var hasExpirationHandler = true
    /// Virtual time at which the system called its expiration handler, if it did.
    public var expirationHandlerCalledAt: TimeInterval?
    /// How it ended.
    public var ending: Ending

    /// Creates a record.
    public init(assertion: SimulatedAssertion, expirationHandlerCalledAt: TimeInterval? = nil, ending: Ending) {
        self.assertion = assertion
        self.expirationHandlerCalledAt = expirationHandlerCalledAt
        self.ending = ending
    }

    /// Seconds it was held, up to `now` while still held.
    public func heldTime(now: TimeInterval) -> TimeInterval {
        switch ending {
        case .stillHeld: now - assertion.createdAt
        case .ended(let time), .endedBySafetyNet(let time), .heldAtTermination(let time): time - assertion.createdAt
        }
    }

    /// `2 ("Upload") begun at 0 s: held 26 s, until its expiration handler; ended at 26 s`.
    public var description: String {
        var text = "\(assertion) begun at \(formatSeconds(assertion.createdAt)) s"
        switch ending {
        case .stillHeld:
            text += ": still held"
        case .ended(let time):
            text += ": held \(formatSeconds(time - assertion.createdAt)) s, ended at \(formatSeconds(time)) s"
        case .endedBySafetyNet(let time):
            text +=
                ": held \(formatSeconds(time - assertion.createdAt)) s, ended by the safety net at "
                + "\(formatSeconds(time)) s (released while running)"
        case .heldAtTermination(let time):
            text += ": held \(formatSeconds(time - assertion.createdAt)) s, still held when the app was terminated"
        }
        if let called = expirationHandlerCalledAt {
            text += "; its expiration handler was called at \(formatSeconds(called)) s"
        }
        return text
    }
}
