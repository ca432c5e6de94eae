import Foundation

/// The seam between this package and the system's background-task assertions.
///
/// A backend offers what `UIApplication` does: begin an assertion that keeps the app from being suspended, end it, tell
/// the background time left. The package's wrappers call it; tests use the simulator (`BackgroundTaskKitTesting`).
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
/// - ``beginBackgroundTask(named:expirationHandler:)`` returns `nil` if refused; granted identifiers last until ended.
/// - The expiration handler is called on the main actor, normally at most once per assertion: possibly before
///   `beginBackgroundTask` returned (a begin off the main thread), or never; never under a lock of the backend's.
/// - ``endBackgroundTask(_:)`` ends a granted assertion; a second end, or an ungranted identifier, must be harmless.
/// - ``backgroundTimeRemaining`` is `nil` while time is unlimited (in the foreground, or where apps are not suspended).
///
/// > Important: Every assertion begun must be ended exactly once, on expiry too, synchronously inside the handler: the
/// > system terminates an app still holding an assertion after the handlers returned (exception code `0x8badf00d`).
public protocol BackgroundTaskBackend: Sendable {
    /// Raises an assertion that keeps the app running in the background.
    /// - Parameters:
    ///   - name: A name for the task. The system prints it in its warnings, so name every task.
    ///   - expirationHandler: Called on the main actor just before time runs out; ends the assertion before returning.
    /// - Returns: The assertion's identifier, or `nil` when the assertion was not granted.
    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier?

    /// Ends an assertion this backend granted.
    /// - Parameter identifier: The identifier returned by ``beginBackgroundTask(named:expirationHandler:)``.
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier)
    /// Background time left in seconds, `nil` while unlimited; an estimate for guards or debugging, never a schedule.
    var backgroundTimeRemaining: TimeInterval? { get }
    /// What this backend tells the package's engine beyond these calls; keep the default, `nil` (a protocol extension).
    var engineHooks: BackgroundTaskBackendHooks? { get }
    /// Whether the app is in the background, or `nil` if this backend cannot tell (the default, from a protocol
    /// extension); a manager holding its assertion only in the background needs it (``ApplicationStateReporting``).
    var applicationStateReporting: (any ApplicationStateReporting)? { get }
}
