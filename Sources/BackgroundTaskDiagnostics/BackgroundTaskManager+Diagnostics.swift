@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

extension BackgroundTaskManager {
    /// Creates a manager whose tasks are recorded for diagnostics: counters per call site, a
    /// report, stale and limit warnings and events for observers, reached through ``diagnostics``.
    ///
    /// ```swift
    /// let uploads = BackgroundTaskManager(configuration: .init(maximumOutstandingTasks: 10), diagnostics: .init())
    /// uploads.diagnostics?.addObserver(UnifiedLoggingObserver(writer: OSLogWriter(subsystem: "com.example.app")))
    /// ```
    ///
    /// A manager created without diagnostics records nothing and builds nothing for them.
    ///
    /// - Parameters:
    ///   - backend: The backend; by default the `withBackgroundTaskBackend` override or the platform
    ///     default.
    ///   - configuration: Limits and coalescing.
    ///   - diagnostics: What to watch for. Its `assertionLimit` is not used: the manager warns at
    ///     80 % of its `maximumOutstandingTasks`.
    ///   - leakHandler: Where this manager's leaks go (see `init(backend:configuration:leakHandler:)`); `nil`:
    ///     `BackgroundTaskLeakReporting`'s handlers. Its observers get them as events either way.
    public convenience init(
        backend: (any BackgroundTaskBackend)? = nil,
        configuration: Configuration = Configuration(),
        diagnostics: BackgroundTaskDiagnostics.Configuration,
        leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)? = nil
    ) {
        self.init(
            backend: backend, configuration: configuration, schedule: nil, diagnostics: diagnostics,
            leakHandler: leakHandler)
    }

    /// As ``init(backend:configuration:diagnostics:)``, with the linger and renewal timers on
    /// `schedule` and ages on `now` (tests).
    package convenience init(
        backend: (any BackgroundTaskBackend)?,
        configuration: Configuration,
        schedule: (@Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void)?,
        now: (@Sendable () -> TimeInterval)? = nil,
        diagnostics: BackgroundTaskDiagnostics.Configuration,
        leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)? = nil
    ) {
        let limit = max(configuration.maximumOutstandingTasks, 0)
        let ledger = TaskLedger(limit: limit, staleTaskAge: diagnostics.staleTaskAge)
        self.init(
            backend: backend, configuration: configuration, schedule: schedule, now: now, recorder: ledger,
            leakHandler: leakHandler)
    }

    /// The diagnostics of this manager's tasks; `nil` when it was created without them
    /// (``init(backend:configuration:diagnostics:)`` creates it with them).
    public var diagnostics: BackgroundTaskDiagnostics? {
        guard let ledger = engine.recorder as? TaskLedger else { return nil }
        return BackgroundTaskDiagnostics(engine: engine, ledger: ledger)
    }
}
