import Foundation

/// The default-backend overrides in force: the process-wide one, and every ``withBackgroundTaskBackend(_:operation:)``
/// scope running now (on any task). A begin that finds none of its own while a scope is in force is almost always a
/// test whose override did not reach a queue: reported once per call site on standard error, and to each scope's
/// backend that wants to know (``DefaultBackendFallThroughReceiving``: the simulator, which fails its checks).
final class OverrideScopes: Sendable {
    static let shared = OverrideScopes()

    enum Lookup {
        case processWide(any BackgroundTaskBackend)
        /// No process-wide override; the backends of the task-local scopes in force.
        case witnesses([any BackgroundTaskBackend])
    }

    private struct State {
        var processWide: (backend: any BackgroundTaskBackend, installedAt: BackgroundTaskCallSite)?
        var scopes: [Int: any BackgroundTaskBackend] = [:]
        var nextScope = 0
        var reported: Set<BackgroundTaskCallSite> = []
    }

    private let state = Locked(State())

    /// A task-local scope begins; returns its number for ``leave(_:)``.
    func enter(_ backend: any BackgroundTaskBackend) -> Int {
        state.withLock { state in
            defer { state.nextScope += 1 }
            state.scopes[state.nextScope] = backend
            return state.nextScope
        }
    }

    /// A task-local scope ends.
    func leave(_ scope: Int) {
        _ = state.withLock { $0.scopes.removeValue(forKey: scope) }
    }

    /// Installs the process-wide override; returns the call site of the one already installed instead, if any.
    func installProcessWide(_ backend: any BackgroundTaskBackend, at callSite: BackgroundTaskCallSite)
        -> BackgroundTaskCallSite?
    {
        state.withLock { state in
            if let installed = state.processWide { return installed.installedAt }
            state.processWide = (backend, callSite)
            return nil
        }
    }

    /// Removes the process-wide override.
    func uninstallProcessWide() {
        state.withLock { $0.processWide = nil }
    }

    func processWideOrWitnesses() -> Lookup {
        state.withLock { state in
            if let processWide = state.processWide { return .processWide(processWide.backend) }
            return .witnesses(state.scopes.isEmpty ? [] : Array(state.scopes.values))
        }
    }

    /// Tells the witnesses that a begin at `callSite` fell through to the platform's backend.
    func reportFallThrough(at callSite: BackgroundTaskCallSite, to witnesses: [any BackgroundTaskBackend]) {
        let first = state.withLock { $0.reported.insert(callSite).inserted }
        if first {
            FileHandle.standardError.write(
                Data(
                    ("BackgroundTaskKit: a task begun at \(callSite) used the platform's backend while "
                        + "withBackgroundTaskBackend(_:) was in force on another task. A task-local default "
                        + "does not reach DispatchQueue work, other threads or Task.detached: use "
                        + "withProcessWideBackgroundTaskBackend(_:), or pass the backend.\n").utf8))
        }
        // Outside the lock: the witnesses are backends.
        for witness in witnesses {
            (witness as? any DefaultBackendFallThroughReceiving)?.defaultBackendFellThrough(at: callSite)
        }
    }
}

/// A backend that wants to know when, while it is a scope's default backend, a begin elsewhere fell through to the
/// platform's backend (the simulator records it, so that a test fails).
package protocol DefaultBackendFallThroughReceiving: Sendable {
    /// A task begun at `callSite` used the platform's backend while this backend was a default.
    func defaultBackendFellThrough(at callSite: BackgroundTaskCallSite)
}
