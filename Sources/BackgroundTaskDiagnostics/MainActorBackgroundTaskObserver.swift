@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Dispatch

/// An observer whose events arrive on the main actor, one at a time and in order: the natural form
/// for app code that keeps state, such as a `@MainActor` class, or any class in a target built with
/// default `MainActor` isolation (Xcode 26's default for new apps).
///
/// ```swift
/// @MainActor final class TaskLog: MainActorBackgroundTaskObserver {
///     var lines: [String] = []
///     func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
///         lines.append("\(event.kind) \(event.name ?? "")")
///     }
/// }
///
/// let log = TaskLog()
/// manager.diagnostics?.addObserver(log)
/// ```
///
/// The manager (or ``DiagnosingBackend``) holds the observer until the returned handle removes it.
@MainActor
public protocol MainActorBackgroundTaskObserver: AnyObject, Sendable {
    /// Called once per event, in order, on the main actor.
    func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent)
}

/// Delivers a main-actor observer's events: from its own serial delivery queue onto the main queue,
/// which keeps them in order.
struct MainActorObserverAdapter: BackgroundTaskObserver {
    let observer: any MainActorBackgroundTaskObserver

    func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        let observer = observer
        DispatchQueue.main.async {
            MainActor.assumeIsolated { observer.backgroundTaskEventOccurred(event) }
        }
    }
}

extension BackgroundTaskDiagnostics {
    /// Adds an observer whose events arrive on the main actor, in order.
    ///
    /// - Parameter observer: The observer, held until the returned handle removes it.
    /// - Returns: A handle that removes the observer.
    @discardableResult
    public func addObserver(_ observer: some MainActorBackgroundTaskObserver) -> BackgroundTaskObserverHandle {
        addObserver(MainActorObserverAdapter(observer: observer))
    }
}

extension BackgroundTaskDiagnosing {
    /// Adds an observer whose events arrive on the main actor, in order.
    ///
    /// - Parameter observer: The observer, held until the returned handle removes it.
    /// - Returns: A handle that removes the observer.
    @discardableResult
    public func addObserver(_ observer: some MainActorBackgroundTaskObserver) -> BackgroundTaskObserverHandle {
        diagnostics.addObserver(observer)
    }
}
