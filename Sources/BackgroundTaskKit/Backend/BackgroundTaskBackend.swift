import Foundation

/// The seam between this package and the system's background-task assertions.
///
/// A backend offers what `UIApplication` offers and nothing more: begin an assertion that keeps the
/// app from being suspended, end it, and tell how much background time is left. The wrappers of
/// this package call a backend; tests swap in the simulator from `BackgroundTaskKitTesting`.
///
/// ```swift
/// let backend: any BackgroundTaskBackend = UnlimitedBackend()
/// if let id = backend.beginBackgroundTask(named: "Save draft", expirationHandler: nil) {
///     saveDraft()
///     backend.endBackgroundTask(id)
/// }
/// ```
///
/// ## Implementation requirements
///
/// - Every requirement may be called from any thread, concurrently.
/// - ``beginBackgroundTask(named:expirationHandler:)`` returns `nil` when the assertion is not
///   granted. A granted identifier stays valid until it is ended once.
/// - The expiration handler is called on the main actor, at most once per assertion under normal
///   operation. It may be called before `beginBackgroundTask` has returned (when the task is begun
///   off the main thread), or never. A backend must not hold a lock of its own while it calls it.
/// - ``endBackgroundTask(_:)`` ends a granted assertion. Ending an identifier twice, or one this
///   backend did not grant, must be harmless (the system logs it; a backend may too).
/// - ``backgroundTimeRemaining`` is `nil` while time is unlimited (in the foreground, or on a
///   platform that never suspends apps).
///
/// > Important: Every assertion that is begun must be ended exactly once, including when its
/// > expiration handler runs: end it synchronously inside the handler. The system terminates an app
/// > that still holds an assertion after the handlers have returned (exception code `0x8badf00d`).
public protocol BackgroundTaskBackend: Sendable {
    /// Raises an assertion that keeps the app running in the background.
    ///
    /// - Parameters:
    ///   - name: A name for the task. The system prints it in its warnings, so name every task.
    ///   - expirationHandler: Called on the main actor shortly before background time runs out.
    ///     It must end the assertion before it returns.
    /// - Returns: The assertion's identifier, or `nil` when the assertion was not granted.
    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier?

    /// Ends an assertion this backend granted.
    ///
    /// - Parameter identifier: The identifier returned by
    ///   ``beginBackgroundTask(named:expirationHandler:)``.
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier)

    /// The background time left, in seconds, or `nil` while time is unlimited.
    ///
    /// An estimate: use it for a guard ("is there enough time to start?") or for debugging, never as
    /// a schedule.
    var backgroundTimeRemaining: TimeInterval? { get }

    /// What this backend tells the package's engine beyond these calls; keep the default, `nil`,
    /// which a protocol extension provides.
    var engineHooks: BackgroundTaskBackendHooks? { get }

    /// Reports whether the app is in the background, or `nil` when this backend cannot tell (the
    /// default, from a protocol extension). A manager that holds its system assertion only in the
    /// background needs it; see ``ApplicationStateReporting``.
    var applicationStateReporting: (any ApplicationStateReporting)? { get }
}
