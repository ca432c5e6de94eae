import Foundation

/// Tells whether the app is in the background, and when that changes: what a ``BackgroundTaskManager`` needs to hold
/// its assertion only outside the foreground (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``).
///
/// Mirrors UIKit's `applicationState` and `didEnterBackgroundNotification` / `willEnterForegroundNotification`. The
/// `UIApplication` backend and the simulator report through it, so tests see an app's transitions. Backends that cannot
/// tell return `nil`, and the manager holds its assertion from the first task.
/// ```swift
/// let observation = backend.applicationStateReporting?.observeBackgroundState { inBackground in
///     print(inBackground ? "left the foreground" : "back in the foreground")
/// }
/// ```
public protocol ApplicationStateReporting: Sendable {
    /// Calls `handler` on the main actor with whether the app is in the background: the current state (at once on the
    /// main actor, else soon on the main queue), then each change, until the observation is cancelled or released.
    /// - Parameter handler: Called with `true` when the app is in the background, `false` in the foreground.
    /// - Returns: The observation; keep it for as long as you want the reports.
    func observeBackgroundState(
        _ handler: @escaping @MainActor @Sendable (_ inBackground: Bool) -> Void
    ) -> ApplicationStateObservation
}

/// A registration with an ``ApplicationStateReporting``: reports stop when it is cancelled or released.
public final class ApplicationStateObservation: Sendable {
    private let cancellation: RunOnce

    /// Creates an observation that runs `cancel` once, when cancelled or released.
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
