import Foundation

/// Tells whether the app is in the background, and when that changes: what a
/// ``BackgroundTaskManager`` needs to hold its system assertion only while the app is not in the
/// foreground (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``).
///
/// The smallest mirror of what UIKit offers: `applicationState` and the
/// `didEnterBackgroundNotification` / `willEnterForegroundNotification` pair. The `UIApplication`
/// backend reports through it, and so does the simulator, so a test sees the same transitions an app
/// does. Backends that cannot tell return `nil` from
/// ``BackgroundTaskBackend/applicationStateReporting``, and the manager then holds its assertion
/// from the first task on, as it always has.
///
/// ```swift
/// let observation = backend.applicationStateReporting?.observeBackgroundState { inBackground in
///     print(inBackground ? "left the foreground" : "back in the foreground")
/// }
/// ```
public protocol ApplicationStateReporting: Sendable {
    /// Calls `handler` on the main actor with whether the app is in the background: once with the
    /// current state (at once when called on the main actor, otherwise soon after on the main
    /// queue), then at every change, until the observation is cancelled or released.
    ///
    /// - Parameter handler: Called with `true` when the app is in the background, `false` in the
    ///   foreground.
    /// - Returns: The observation; keep it for as long as you want the reports.
    func observeBackgroundState(
        _ handler: @escaping @MainActor @Sendable (_ inBackground: Bool) -> Void
    ) -> ApplicationStateObservation
}

/// A registration with an ``ApplicationStateReporting``: reports stop when it is cancelled or
/// released.
public final class ApplicationStateObservation: Sendable {
    private let cancellation: RunOnce

    /// Creates an observation that runs `cancel` once, when cancelled or released.
    ///
    /// - Parameter cancel: Stops the reports.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = RunOnce(cancel)
    }

    /// Stops the reports; calling it again does nothing.
    public func cancel() {
        cancellation.run()
    }

    deinit {
        cancel()
    }
}

extension BackgroundTaskBackend {
    /// `nil`: this backend cannot tell whether the app is in the background.
    public var applicationStateReporting: (any ApplicationStateReporting)? { nil }
}
