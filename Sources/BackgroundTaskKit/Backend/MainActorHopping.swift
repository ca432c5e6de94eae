/// A performer of expiring activities with its own way onto the main actor: the simulator, whose main thread is the
/// test's, waiting inside the system's expiry while the app's other threads run. ``ExpiringActivityBackend`` runs
/// expiration handlers through it instead of `DispatchQueue.main`; real performers (`ProcessInfo`) do not conform.
package protocol MainActorHopping: AnyObject {
    /// Runs the work on the main actor soon, without waiting for it.
    var mainActorHop: @Sendable (@escaping @Sendable () -> Void) -> Void { get }
}
