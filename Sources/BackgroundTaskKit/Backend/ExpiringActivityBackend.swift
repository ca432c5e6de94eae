import Dispatch
import Foundation

/// A backend adapting `ProcessInfo.performExpiringActivity(withReason:using:)` for app extensions and watchOS apps.
///
/// The system holds an expiring activity's assertion while the *first* invocation of its block runs; this backend makes
/// that ``BackgroundTaskBackend``'s begin and end, with its own identifiers (from 1 up, shared by all copies):
/// - ``beginBackgroundTask(named:expirationHandler:)`` starts an activity and waits, at most ``grantTimeout``, for the
///   first invocation. `expired == false` means granted: that invocation parks (blocks its thread on a semaphore) until
///   the task is ended or expires. `expired == true`, or no invocation in time, means not granted (`nil`); an
///   invocation arriving after `begin` gave up returns at once, so nothing leaks or hangs.
/// - ``endBackgroundTask(_:)`` lets the parked invocation return, which ends the assertion.
/// - At expiry the block is called again (`expired == true`): the handler runs on the main actor, then it returns.
///
/// ```swift
/// let backend = ExpiringActivityBackend(ProcessInfo.processInfo)
/// ```
/// > Important: `begin` blocks its caller until the system answers (usually at once), and each granted task occupies a
/// > thread of the system's concurrent queue until ended. The expiration handler runs shortly after the system's second
/// > call, not inside it, and only if the task is not ended by then.
public struct ExpiringActivityBackend<Performer: ExpiringActivityPerforming>: BackgroundTaskBackend {
    /// The performer's reason for a task with no name (`nil` or empty): `"BackgroundTaskKit background task"`.
    public static var defaultReason: String { ActivityReason.fallback }
    /// How long ``beginBackgroundTask(named:expirationHandler:)`` waits for the system's answer, in seconds; past it
    /// the task is not granted. Negative counts as 0, NaN as the default (2 s); `.infinity` waits indefinitely.
    public let grantTimeout: TimeInterval

    private let performer: UncheckedSendableBox<Performer>
    private let registry: ExpiringActivityRegistry

    /// Creates a backend over a performer, usually `ProcessInfo.processInfo`.
    /// - Parameters:
    ///   - performer: Performs expiring activities; must be safe to call from any thread, as `ProcessInfo` is.
    ///   - grantTimeout: How long `begin` waits for the block's first invocation before reporting "not granted", in
    ///     seconds. The system normally answers at once; this only bounds how long a caller can be held up.
    public init(_ performer: Performer, grantTimeout: TimeInterval = 2) {
        self.performer = UncheckedSendableBox(performer)
        self.registry = ExpiringActivityRegistry(mainActorHop: (performer as? any MainActorHopping)?.mainActorHop)
        self.grantTimeout = grantTimeout.isNaN ? 2 : max(grantTimeout, 0)
    }

    /// Starts an expiring activity and waits until the system grants or refuses it.
    /// - Parameters:
    ///   - name: The activity's reason; ``defaultReason`` when `nil` or empty.
    ///   - expirationHandler: Called on the main actor at expiry, before the assertion's release; should end the task.
    /// - Returns: The identifier, or `nil` if refused, or unanswered within ``grantTimeout``.
    ///
    /// > Important: When time runs out before this method has returned, the handler may already be scheduled or have
    /// > run; the identifier is still returned, and ending it is harmless.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let registry = registry
        let (identifier, gate) = registry.register(expirationHandler: expirationHandler)
        let reason = ActivityReason.forTask(named: name)
        performer.value.performExpiringActivity(withReason: reason) { expired in
            registry.invoke(identifier, expired: expired)
        }
        _ = gate.answered.wait(timeout: deadline())
        guard registry.settleGrant(of: identifier) else { return nil }
        return BackgroundTaskIdentifier(rawValue: identifier)
    }

    /// Ends a task (its parked block returns); a second end, an expired task or a foreign identifier do nothing.
    /// - Parameter identifier: An identifier returned by ``beginBackgroundTask(named:expirationHandler:)``.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        registry.release(identifier.rawValue)
    }

    /// Always `nil`: expiring activities do not tell how much time is left.
    public var backgroundTimeRemaining: TimeInterval? { nil }

    private func deadline() -> DispatchTime {
        // By hand: `Int` is 32 bits on some watches, and DispatchTime arithmetic traps on values out of range.
        let nanoseconds = grantTimeout * 1_000_000_000
        guard nanoseconds < Double(UInt64.max / 2) else { return .distantFuture }
        let (uptime, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(UInt64(nanoseconds))
        return overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: uptime)
    }
}
