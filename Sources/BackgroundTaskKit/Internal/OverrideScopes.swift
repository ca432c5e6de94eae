/// The default-backend overrides in force: the process-wide one, and every ``withBackgroundTaskBackend(_:operation:)``
/// scope running now (on any task). A begin that finds none of its own while a scope is in force is almost always a
/// test whose override did not reach a queue: the test kit's attribution says whose; without one, it is reported to
/// every scope's backend that wants to know (the simulator, which fails its checks).
package final class OverrideScopes: Sendable {
    package static let shared = OverrideScopes()

    enum Lookup {
        case processWide(any BackgroundTaskBackend)
        /// No process-wide override; the task-local scopes in force.
        case witnesses([DefaultBackendScope])
    }

    private struct State {
        var processWide: (backend: any BackgroundTaskBackend, installedAt: BackgroundTaskCallSite)?
        var scopes: [Int: DefaultBackendScope] = [:]
        var nextScope = 0
        var attribution: (any FallThroughAttributing)?
    }

    private let state = Locked(State())

    /// A task-local scope begins; returns its number for ``leave(_:)``.
    func enter(_ backend: any BackgroundTaskBackend) -> Int {
        // The attribution is the kit's code: asked outside the lock.
        let test = state.withLock { $0.attribution }?.currentTest()
        return state.withLock { state in
            defer { state.nextScope += 1 }
            state.scopes[state.nextScope] = DefaultBackendScope(backend: backend, test: test)
            return state.nextScope
        }
    }

    /// A task-local scope ends.
    func leave(_ scope: Int) {
        _ = state.withLock { $0.scopes.removeValue(forKey: scope) }
    }

    /// Installs the process-wide override, unless one is installed already.
    func installProcessWide(_ backend: any BackgroundTaskBackend, fileID: String, line: Int)
        throws(ProcessWideBackendConflict)
    {
        let callSite = BackgroundTaskCallSite(
            fileID: fileID, line: line, function: "withProcessWideBackgroundTaskBackend")
        let installed = state.withLock { state -> BackgroundTaskCallSite? in
            if let installed = state.processWide { return installed.installedAt }
            state.processWide = (backend, callSite)
            return nil
        }
        if let installed { throw ProcessWideBackendConflict(installedAt: installed, attemptedAt: callSite) }
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

    /// Installs the test kit's attribution of fall-throughs.
    package func install(_ attribution: any FallThroughAttributing) {
        state.withLock { $0.attribution = attribution }
    }

    /// Reports that a begin at `callSite` fell through to the platform's backend while `scopes` were in force.
    func reportFallThrough(at callSite: BackgroundTaskCallSite, to scopes: [DefaultBackendScope]) {
        // Outside the lock: the attribution and the witnesses are the kit's code and backends.
        if let attribution = state.withLock({ $0.attribution }) {
            attribution.fellThrough(at: callSite, inTest: attribution.currentTest(), scopes: scopes)
        } else {
            for scope in scopes { scope.receiver?.defaultBackendFellThrough(at: callSite) }
        }
    }
}

/// A ``withBackgroundTaskBackend(_:operation:)`` scope in force: its backend, and the test whose task entered it (as the
/// attribution identifies it), `nil` when unknown.
package struct DefaultBackendScope: Sendable {
    package let backend: any BackgroundTaskBackend
    package let test: String?

    /// The backend, when it wants to know of fall-throughs.
    package var receiver: (any DefaultBackendFallThroughReceiving)? {
        backend as? any DefaultBackendFallThroughReceiving
    }
}

/// Decides which test a begin that fell through to the platform's backend belongs to (the test kit installs one, from
/// Swift Testing's current test).
package protocol FallThroughAttributing: Sendable {
    /// The test running on the calling task, or `nil` when it cannot be known (a queue, a thread, `Task.detached`).
    func currentTest() -> String?
    /// A begin at `callSite`, made in `test` when known, fell through while `scopes` were in force.
    func fellThrough(at callSite: BackgroundTaskCallSite, inTest test: String?, scopes: [DefaultBackendScope])
}

/// A backend that wants to know when, while it is a scope's default backend, a begin elsewhere fell through to the
/// platform's backend (the simulator records it, so that a test fails).
package protocol DefaultBackendFallThroughReceiving: Sendable {
    /// A task begun at `callSite` used the platform's backend while this backend was a default.
    func defaultBackendFellThrough(at callSite: BackgroundTaskCallSite)
}
