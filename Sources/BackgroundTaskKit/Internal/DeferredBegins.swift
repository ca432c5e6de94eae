import Dispatch

/// Begins asked for off the main thread before the application is known (`UIApplication.shared` is main-actor only):
/// granted a provisional identifier at once (negative: UIKit's are positive, `.invalid` is 0), the real begin follows
/// on the main queue; ending it ends the real assertion or cancels the pending begin.
final class DeferredBegins<Application: ApplicationBackgroundTasking>: Sendable {
    private enum Entry {
        /// Waiting for the main queue.
        case waiting(name: String?, handler: (@MainActor @Sendable () -> Void)?)
        /// Being begun on the main queue now; `endRequested` once an end came meanwhile.
        case beginning(endRequested: Bool)
        /// Begun: ends go to this identifier.
        case begun(Application.TaskIdentifier)
    }

    private struct State {
        var nextRawValue = -1
        var entries: [(rawValue: Int, entry: Entry)] = []  // entries in provisional order (most recent last)
        var isScheduled = false

        func index(of rawValue: Int) -> Int? {
            entries.firstIndex { $0.rawValue == rawValue }
        }
    }

    private let state = Locked(State())

    /// Whether `identifier` is provisional (one this type handed out).
    static func isProvisional(_ identifier: BackgroundTaskIdentifier) -> Bool {
        identifier.rawValue < 0
    }

    /// Grants a provisional identifier for a begin to make on the main queue once `resolver` has the application.
    func begin(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?,
        resolver: ApplicationResolver<Application>
    ) -> BackgroundTaskIdentifier {
        let (rawValue, schedule) = state.withLock { state in
            let rawValue = state.nextRawValue
            state.nextRawValue = rawValue == Int.min ? -1 : rawValue - 1
            state.entries.append((rawValue, .waiting(name: name, handler: expirationHandler)))
            defer { state.isScheduled = true }
            return (rawValue, !state.isScheduled)
        }
        if schedule {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.beginBackgroundTasksWaiting(resolver: resolver) }
            }
        }
        return BackgroundTaskIdentifier(rawValue: rawValue)
    }

    /// Ends a provisional assertion: returns the application's identifier to end, or `nil` when there is nothing to end
    /// at the application (not begun yet: the begin is cancelled; refused; unknown).
    func end(_ identifier: BackgroundTaskIdentifier) -> Application.TaskIdentifier? {
        state.withLock { state in
            guard let index = state.index(of: identifier.rawValue) else { return nil }
            switch state.entries[index].entry {
            case .waiting:
                state.entries.remove(at: index)
                return nil
            case .beginning:
                state.entries[index].entry = .beginning(endRequested: true)
                return nil
            case .begun(let applicationIdentifier):
                state.entries.remove(at: index)
                return applicationIdentifier
            }
        }
    }

    /// On the main queue: resolves the application and makes the waiting begins, in order. An end that came while a
    /// begin was being made ends that assertion at once.
    @MainActor
    private func beginBackgroundTasksWaiting(resolver: ApplicationResolver<Application>) {
        let application = resolver.resolveOnMainActor()
        while true {
            let next = state.withLock { state -> (Int, String?, (@MainActor @Sendable () -> Void)?)? in
                guard
                    let index = state.entries.firstIndex(where: { if case .waiting = $0.entry { true } else { false } }
                    ),
                    case .waiting(let name, let handler) = state.entries[index].entry
                else {
                    state.isScheduled = false
                    return nil
                }
                state.entries[index].entry = .beginning(endRequested: false)
                return (state.entries[index].rawValue, name, handler)
            }
            guard let (rawValue, name, handler) = next else { return }
            // Without the lock: the application may call the handler before it returns.
            let granted = TracerThreadFlags.packageCall {
                application?.beginBackgroundTask(withName: name, expirationHandler: handler)
            }
            let endNow = state.withLock { state -> Bool in
                guard let index = state.index(of: rawValue) else { return false }
                guard let granted, granted != .invalid else {
                    state.entries.remove(at: index)
                    return false
                }
                if case .beginning(endRequested: true) = state.entries[index].entry {
                    state.entries.remove(at: index)
                    return true
                }
                state.entries[index].entry = .begun(granted)
                return false
            }
            if endNow, let application, let granted {
                TracerThreadFlags.packageCall { application.endBackgroundTask(granted) }
            }
        }
    }
}
