@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

/// An observer added with `addObserver`: ``remove()`` stops its events.
///
/// Dropping the handle does not remove the observer (so `addObserver` can be called for its effect
/// alone); keep the handle where the observer may have to go, for example with a screen that shows
/// the events.
///
/// ```swift
/// let handle = diagnosingBackend.addObserver { event in log(event) }
/// // …
/// handle.remove()
/// ```
public final class BackgroundTaskObserverHandle: Sendable {
    private let removal: RunOnce

    init(remove: @escaping @Sendable () -> Void) {
        removal = RunOnce(remove)
    }

    /// Stops the observer's events. Events already handed to it may still arrive; idempotent.
    public func remove() {
        removal.run()
    }
}
