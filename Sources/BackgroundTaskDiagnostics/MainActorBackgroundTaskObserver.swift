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

/// Delivers a main-actor observer's events in order: buffered as they come from the registration's queue, delivered
/// by one block on the main queue; or at once by a `waitForObservers()` made on the main actor, which a synchronous
/// test holds, so that its block could not run before the test looks.
final class MainActorObserverAdapter: BackgroundTaskObserver, @unchecked Sendable {  // state in `pending` (locked)
    private struct Pending {
        var events: [BackgroundTaskEvent] = []
        var scheduled = false
    }

    let observer: any MainActorBackgroundTaskObserver
    private let pending = Locked(Pending())
    /// A delivery is running (on the main actor): a nested one, from an observer that waits, leaves it the events.
    @MainActor private var delivering = false

    init(observer: any MainActorBackgroundTaskObserver) {
        self.observer = observer
    }

    func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        let schedule = pending.withLock { pending -> Bool in
            pending.events.append(event)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule {
            DispatchQueue.main.async { MainActor.assumeIsolated { self.deliver() } }
        }
    }

    /// Delivers every buffered event, in order.
    @MainActor func deliver() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while true {
            let batch = pending.withLock { pending -> [BackgroundTaskEvent] in
                let batch = pending.events
                pending.events = []
                if batch.isEmpty { pending.scheduled = false }
                return batch
            }
            if batch.isEmpty { return }
            for event in batch { observer.backgroundTaskEventOccurred(event) }
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
