import Dispatch
import Foundation

/// Gets hold of a main-actor-isolated application from any thread, without crashing or blocking, once for every copy
/// of an ``ApplicationBackend``: the resolver runs only on the main actor, never under the lock or through
/// `DispatchQueue.main.sync`; a first use off the main thread schedules it there and reports "not yet" (`nil`).
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

    init(_ application: Application) {
        state = Locked(.resolved(application))
    }

    /// Calls `resolve` on the main thread when first needed, and again while it finds no application (`nil`: none yet).
    init(resolving resolve: @escaping @MainActor @Sendable () -> Application?) {
        state = Locked(.unresolved(resolve: resolve, isScheduled: false))
    }

    /// The application if it is already known, without resolving or scheduling anything.
    var resolvedApplication: Application? {
        state.withLock { state in
            if case .resolved(let application) = state { application } else { nil }
        }
    }

    /// The application, resolved now on the main actor; elsewhere `nil` until the main queue resolves it (asked once).
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

    /// Resolves on the main actor, calling the resolver until it finds the application; `nil` inside it or if none yet.
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
