import Dispatch
import Foundation

/// A backend that adapts `ProcessInfo.performExpiringActivity(withReason:using:)` to begin and end,
/// for app extensions and watchOS apps, where `UIApplication` is out of reach.
///
/// The system holds an expiring activity's assertion while the *first* invocation of its block runs.
/// This backend turns that into the begin/end shape of ``BackgroundTaskBackend``:
///
/// - ``beginBackgroundTask(named:expirationHandler:)`` starts an activity and waits, at most
///   ``grantTimeout``, for the first invocation. `expired == false` means granted: that invocation
///   then parks (blocks its thread on a semaphore) until the task is ended or expires.
///   `expired == true`, or no invocation in time, means not granted (`nil`); an invocation that
///   arrives after `begin` gave up returns at once, so nothing leaks and nothing hangs.
/// - ``endBackgroundTask(_:)`` lets the parked invocation return, which ends the assertion.
/// - When time runs out the system calls the block a second time with `expired == true`. The
///   backend then runs the expiration handler asynchronously on the main actor and afterwards lets
///   the parked invocation return (if the handler did not end the task itself).
///
/// Identifiers are the backend's own, counting up from 1; every copy of the backend shares them.
///
/// ```swift
/// let backend = ExpiringActivityBackend(ProcessInfo.processInfo)
/// if let id = backend.beginBackgroundTask(named: "Save", expirationHandler: { stopSaving() }) {
///     save()
///     backend.endBackgroundTask(id)
/// }
/// ```
///
/// > Important: `begin` blocks its caller until the system answers (usually at once), at most
/// > ``grantTimeout``. Each granted task occupies one thread of the system's concurrent queue until it
/// > is ended. The expiration handler runs on the main actor shortly after the system's second call,
/// > not synchronously inside it, and only if the task has not been ended by then.
///
/// ``backgroundTimeRemaining`` is always `nil`: the API does not tell.
public struct ExpiringActivityBackend<Performer: ExpiringActivityPerforming>: BackgroundTaskBackend {
    /// The reason passed to the performer when a task has no name (`nil` or empty):
    /// `"BackgroundTaskKit background task"`.
    public static var defaultReason: String { ActivityReason.fallback }

    /// How long ``beginBackgroundTask(named:expirationHandler:)`` waits for the system's answer, in
    /// seconds.
    ///
    /// Past it the task is reported as not granted. A negative value is treated as 0 and a value that
    /// is not a number as the default, 2 seconds; `.infinity` waits as long as it takes.
    public let grantTimeout: TimeInterval

    private let performer: UncheckedSendableBox<Performer>
    private let registry: ExpiringActivityRegistry

    /// Creates a backend over a performer, usually `ProcessInfo.processInfo`.
    ///
    /// - Parameters:
    ///   - performer: The object that performs expiring activities. It must be safe to call from any
    ///     thread, as `ProcessInfo` is.
    ///   - grantTimeout: How long `begin` waits for the first invocation of the block before it
    ///     reports "not granted", in seconds. The system normally answers at once; the default,
    ///     2 seconds, only bounds how long a caller can be held up when it does not.
    public init(_ performer: Performer, grantTimeout: TimeInterval = 2) {
        self.performer = UncheckedSendableBox(performer)
        self.registry = ExpiringActivityRegistry(mainActorHop: (performer as? any MainActorHopping)?.mainActorHop)
        self.grantTimeout = grantTimeout.isNaN ? 2 : max(grantTimeout, 0)
    }

    /// Starts an expiring activity and waits until the system grants or refuses it.
    ///
    /// - Parameters:
    ///   - name: The activity's reason; ``defaultReason`` when `nil` or empty.
    ///   - expirationHandler: Called on the main actor when time runs out, before the assertion is
    ///     released. It should end the task (ending it is harmless either way).
    /// - Returns: The task's identifier, or `nil` when the system refused the activity or did not
    ///   answer within ``grantTimeout``.
    ///
    /// > Important: When time runs out before this method has returned, the handler may already be
    /// > scheduled or have run; the identifier is still returned, and ending it is harmless.
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

    /// Ends a task: its parked block returns, releasing the assertion.
    ///
    /// Ending a task twice, after it expired, or with an identifier this backend did not grant does
    /// nothing.
    ///
    /// - Parameter identifier: An identifier returned by
    ///   ``beginBackgroundTask(named:expirationHandler:)``.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        registry.release(identifier.rawValue)
    }

    /// Always `nil`: expiring activities do not tell how much time is left.
    public var backgroundTimeRemaining: TimeInterval? { nil }

    private func deadline() -> DispatchTime {
        // Converted by hand: `Int` is 32 bits on some watches, and DispatchTime arithmetic traps on
        // values out of range.
        let nanoseconds = grantTimeout * 1_000_000_000
        guard nanoseconds < Double(UInt64.max / 2) else { return .distantFuture }
        let (uptime, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(UInt64(nanoseconds))
        return overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: uptime)
    }
}
