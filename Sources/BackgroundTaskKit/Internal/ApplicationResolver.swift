import Dispatch
import Foundation

/// Gets hold of a main-actor-isolated application from any thread, without crashing or blocking.
///
/// Shared by every copy of an ``ApplicationBackend``, so the application is resolved once. The
/// resolver closure runs only on the main actor, never while the lock is held, and never through
/// `DispatchQueue.main.sync`: a first use off the main thread schedules it on the main queue and
/// reports "not yet" (`nil`).
final class ApplicationResolver<Application: ApplicationBackgroundTasking>: Sendable {
    private enum State {
        /// Known from the start or resolved on the main thread.
        case resolved(Application)
        /// Not resolved yet; `isScheduled` is true once a resolution waits on the main queue.
        case unresolved(resolve: @MainActor @Sendable () -> Application?, isScheduled: Bool)
        /// The resolver is running on the main actor; a use from inside it finds no application.
        case resolving
    }

    private let state: Locked<State>

    /// Creates a resolver that already knows the application.
    init(_ application: Application) {
        state = Locked(.resolved(application))
    }

    /// Creates a resolver that calls `resolve` on the main thread the first time it is needed, and
    /// again each time it is needed while `resolve` finds no application (`nil`: not created yet).
    init(resolving resolve: @escaping @MainActor @Sendable () -> Application?) {
        state = Locked(.unresolved(resolve: resolve, isScheduled: false))
    }

    /// The application if it is already known, without resolving or scheduling anything.
    var resolvedApplication: Application? {
        state.withLock { state in
            if case .resolved(let application) = state { application } else { nil }
        }
    }

    /// The application, resolving it now on the main actor; elsewhere `nil` until the main queue has
    /// resolved it (the first such call schedules that).
    func application() -> Application? {
        if let application = resolvedApplication {
            return application
        }
        if MainActorContext.isCurrent {
            return MainActor.assumeIsolated { resolveOnMainActor() }
        }
        scheduleResolution()
        return nil
    }

    /// Resolves the application on the main actor, calling the resolver until it finds one.
    ///
    /// - Returns: The application; `nil` when called from inside the resolver itself, or when the
    ///   resolver found no application yet.
    @MainActor
    @discardableResult
    func resolveOnMainActor() -> Application? {
        let pending = state.withLock { state -> (@MainActor @Sendable () -> Application?)? in
            guard case .unresolved(let resolve, _) = state else { return nil }
            state = .resolving
            return resolve
        }
        guard let resolve = pending else { return resolvedApplication }
        let application = resolve()  // Without the lock: it may use the backend.
        state.withLock { state in
            state = application.map { .resolved($0) } ?? .unresolved(resolve: resolve, isScheduled: false)
        }
        return application
    }

    private func scheduleResolution() {
        let shouldSchedule = state.withLock { state in
            guard case .unresolved(let resolve, isScheduled: false) = state else { return false }
            state = .unresolved(resolve: resolve, isScheduled: true)
            return true
        }
        guard shouldSchedule else { return }
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                _ = self.resolveOnMainActor()
            }
        }
    }
}
