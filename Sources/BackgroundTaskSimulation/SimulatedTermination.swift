import BackgroundTaskKit
import Foundation

/// The exception code iOS puts in the crash report of an app it killed.
public enum TerminationCode: UInt32, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// `0x8badf00d` ("ate bad food"): the watchdog killed the app, here because it held an
    /// assertion after its background time and its expiration handlers were over.
    case watchdogTimeout = 0x8bad_f00d
    /// `0xbada5e47` ("bad assert"): the app held more assertions than the system allows (about 1000).
    case tooManyAssertions = 0xbada_5e47
    /// An uncaught Objective-C exception (`EXC_CRASH`, `SIGABRT`; exception codes 0): here `BGTaskScheduler`'s, for a
    /// launch handler registered after launch or twice, or a launched task with no handler registered.
    case uncaughtException = 0
    /// `0xdead10cc` ("deadlock"): the app was suspended while holding a file lock or an SQLite database lock (in a
    /// shared container, on a device); MetricKit counts it as `cumulativeSuspendedWithLockedFileExitCount`.
    case suspendedWithLockedFile = 0xdead_10cc

    /// The code as crash reports print it, for example `0x8badf00d`.
    public var hexString: String { "0x" + String(rawValue, radix: 16) }

    /// ``hexString``, or `SIGABRT` for ``uncaughtException``.
    public var description: String { self == .uncaughtException ? "SIGABRT" : hexString }
}

/// Why the simulated system killed the app.
public enum TerminationReason: String, Sendable, Equatable, CaseIterable {
    /// Background time ran out and, after every expiration handler had returned, assertions were
    /// still held.
    case assertionsHeldAfterExpiration
    /// The expiration handlers together took longer than the handler time budget.
    case expirationHandlersTookTooLong
    /// A task whose handler had been called outside an expiry (see
    /// ``SimulatorFault/handlerBeforeBeginReturns``) was not ended within the handler time budget.
    case expiredTaskNotEnded
    /// More assertions were outstanding than the system allows.
    case assertionLimitExceeded
    /// The app was suspended while it held a file lock the test declared
    /// (``BackgroundTaskSimulator/takeFileLock(_:)``).
    case suspendedHoldingFileLock
    /// A launched scheduled task (`BGTask`) was not completed in time after its expiration handler was called.
    case scheduledTaskNotCompleted
    /// A `BGTaskScheduler` launch handler was registered after the app finished launching.
    case launchHandlerRegisteredAfterLaunch
    /// A `BGTaskScheduler` launch handler was registered twice for one identifier.
    case launchHandlerRegisteredTwice
    /// The system launched the app for a task whose identifier has no launch handler registered.
    case noLaunchHandlerRegistered
}

/// The record of the simulated app's termination.
public struct SimulatedTermination: Equatable, Sendable, CustomStringConvertible {
    /// The exception code of the crash report.
    public var code: TerminationCode
    /// Why the system killed the app.
    public var reason: TerminationReason
    /// Virtual time of the termination, in seconds.
    public var time: TimeInterval
    /// The assertions the app still held, in begin order.
    public var heldAssertions: [SimulatedAssertion]

    /// Creates a termination record.
    public init(
        code: TerminationCode,
        reason: TerminationReason,
        time: TimeInterval,
        heldAssertions: [SimulatedAssertion]
    ) {
        self.code = code
        self.reason = reason
        self.time = time
        self.heldAssertions = heldAssertions
    }

    /// A one-line summary, for example
    /// `terminated 0x8badf00d at 30 s (assertionsHeldAfterExpiration); held: 1 ("Upload")`.
    public var description: String {
        let held = heldAssertions.isEmpty ? "none" : heldAssertions.map(\.description).joined(separator: ", ")
        return "terminated \(code) at \(formatSeconds(time)) s (\(reason.rawValue)); held: \(held)"
    }
}
