import Dispatch
import Foundation

/// The one engine behind every face: begins and ends assertions through a backend, exactly once. Each face holds a
/// ``TaskRecord``; the expiration handler captures only the assertion's holder. Its state and the records' fields are
/// reached only through ``withLock(at:_:)``, which computes an ``EngineAction`` performed after unlocking: the backend,
/// cleanups and observers are never called under the lock. ``standalone`` serves every standalone face; each manager has
/// its own (its list, cap and optional ``TaskRecorder``). Lock trips per face: `Documentation/Engine.md`. The promise,
/// whatever the threads do: every assertion begun is ended exactly once, and a handler does not return while an
/// assertion it covers is held, if any thread can still end it: it waits for a begin or end in flight on another
/// thread (``AssertionCall``); one inside its own thread's begin leaves the end to that begin.
package final class TaskEngine: @unchecked Sendable {  // state below is only touched under `lock`
    /// How an engine behaves; one per manager, one for all standalone faces.
    package struct Options: Sendable {
        var maximumOutstandingTasks: Int?  // one more running task is refused (`limitReached`)
        var minimumTimeRemaining: TimeInterval?  // below this much background time, begins are refused
        var expiresAllTogether = false  // a manager: the first expiry expires every task, not just its own
        var coalescing = false  // all tasks share one system assertion
        var linger: TimeInterval = 0  // coalescing: how long the shared assertion outlives its last task
        var lingerMinimumTimeRemaining: TimeInterval = 5  // below this background time, never linger
        var renewalAge: TimeInterval?  // coalescing: a fresh assertion takes over at this age; `nil`: never
        var sharedAssertionName: String?  // coalescing: the shared assertion's name
        var holdsOnlyInBackground = false  // hold the shared assertion only in the background (when reported)
        var offMainCleanupTimeout: TimeInterval = 1  // an off-main handler's wait for the cleanups it sent to main
        var inFlightBeginTimeout: TimeInterval = 1  // an expiry's wait for a call in flight on another's assertion
        var lastChanceTimeout: TimeInterval = 4  // a handler's wait for a call in flight on its own assertion
        /// Runs the linger and renewal timers; `nil`: the backend's clock (``BackendClock/of(_:)``).
        var schedule: (@Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void)?
        var now: (@Sendable () -> TimeInterval)?  // the clock of task ages, in seconds; `nil`: the backend's clock

        static let standalone = Options()  // one task alone: no cap, no guard, no coalescing, no list
    }

    /// Names longer than this are cut to it (system logs truncate them anyway).
    package static let maximumNameLength = 256

    /// The engine of `SafeBackgroundTask`, `ScopedBackgroundTask` and `withBackgroundTask`: tasks in no list.
    package static let standalone = TaskEngine(backend: nil, options: .standalone)

    let options: Options
    package let lock = EngineLock()
    /// A manager's backend; `nil` for ``standalone``, whose tasks carry their own.
    let backend: (any BackgroundTaskBackend)?
    /// Whether this is ``standalone`` (no backend of its own): a flag, as testing the optional existential copies it.
    let isStandalone: Bool
    /// Whether an end or a begin's outcome needs the time: a recorder's events, or a shared assertion's linger.
    let endsNeedTime: Bool
    let hooks: BackgroundTaskBackendHooks?  // a manager's backend's hooks, read once
    package let clock: BackendClock  // a manager's clock of ages and timers

    /// A manager's diagnostics (`BackgroundTaskDiagnostics`), told of every task under the lock; `nil`: none.
    package let recorder: (any TaskRecorder)?
    /// The engine's own mutable state: private, so every other file reaches it only through ``withLock(at:_:)``.
    /// Unchecked: the lock makes every access exclusive (the run-time checks cost up to 707 instructions a pair on
    /// the engine's and records' fields together: callgrind, 2026-11-25).
    @exclusivity(unchecked) private var state: EngineState

    /// Where a manager's leaks go instead of ``BackgroundTaskLeakReporting``'s module or process-wide handler; `nil`:
    /// there.
    package let leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)?

    package init(
        backend: (any BackgroundTaskBackend)?, options: Options, recorder: (any TaskRecorder)? = nil,
        leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)? = nil
    ) {
        self.leakHandler = leakHandler
        self.backend = backend
        self.isStandalone = backend == nil
        self.endsNeedTime = recorder != nil || options.coalescing
        let hooks = backend?.engineHooks
        var options = options
        if let limit = hooks?.inFlightBeginWaitLimit {
            options.inFlightBeginTimeout = min(options.inFlightBeginTimeout, limit)
        }
        self.options = options
        self.hooks = hooks
        var clock = hooks?.clock ?? .system
        if let now = options.now { clock = clock.reading(now) }
        if let schedule = options.schedule { clock = clock.scheduling(schedule) }
        self.clock = clock
        self.recorder = recorder
        self.state = EngineState(renewalAge: options.renewalAge)
        if options.holdsOnlyInBackground, let reporting = backend?.applicationStateReporting {
            let observation = reporting.observeBackgroundState { [weak self] inBackground in
                self?.applicationStateChanged(inBackground: inBackground)
            }
            withLock { $0.stateObservation = observation }
        }
    }

    deinit {
        state.stateObservation?.cancel()
    }

    /// Begins one task on the standalone engine: what every face that is not in a manager does.
    static func beginStandalone(
        _ name: String?,
        backend: (any BackgroundTaskBackend)?,
        fileID: String,
        line: Int,
        function: String,
        cleanup: ExpirationCleanup?,
        onlyInBackground: Bool = false,
        body: BodyTask? = nil
    ) -> TaskRecord {
        let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: function)
        if onlyInBackground { return beginOnlyInBackground(name, backend, callSite, cleanup, body) }
        return standalone.begin(
            name: name, callSite: callSite, cleanup: cleanup,
            backend: DefaultBackend.resolve(backend, callSite: callSite),
            body: body
        ).record
    }

    /// A task that holds its assertion only in the background gets an engine of its own, whose shared assertion, named
    /// as the task, is raised when the app leaves the foreground (a manager's mechanism). Apart: the usual path pays
    /// for none of it.
    @inline(never)
    private static func beginOnlyInBackground(
        _ name: String?, _ backend: (any BackgroundTaskBackend)?, _ callSite: BackgroundTaskCallSite,
        _ cleanup: ExpirationCleanup?, _ body: BodyTask?
    ) -> TaskRecord {
        let backend = DefaultBackend.resolve(backend, callSite: callSite)
        var options = Options()
        (options.coalescing, options.holdsOnlyInBackground, options.expiresAllTogether) = (true, true, true)
        options.sharedAssertionName = normalize(name)
        let engine = TaskEngine(backend: backend, options: options)
        return engine.begin(name: name, callSite: callSite, cleanup: cleanup, backend: backend, body: body).record
    }

    /// The async body's task has started: from now on an expiry cancels it. If the task expired before (while the body
    /// waited for the caller's actor), the body's task is cancelled now, outside the lock, so it starts cancelled.
    func attachBody(of record: TaskRecord, to task: UnsafeCurrentTask?) {
        guard let task, let body = record.body else { return }
        let onMainActor = MainActorContext.isCurrent
        let expiredFirst = withLock { state -> Bool in
            guard !state[body].cancelOnAttach else { return true }
            state[body].task = task
            state[body].onMainActor = onMainActor
            return false
        }
        if expiredFirst { task.cancel() }
    }

    /// The hooks of the backend `holder` uses.
    func hooks(for holder: AssertionHolder) -> BackgroundTaskBackendHooks? {
        isStandalone ? holder.backend.engineHooks : hooks
    }

    /// The clock of the backend `holder` uses.
    func clock(for holder: AssertionHolder) -> BackendClock {
        isStandalone ? (holder.backend.engineHooks?.clock ?? .system) : clock
    }

    /// Runs `body` with the engine's state under the lock, at time `now` (with a recorder: the time of its events).
    /// The records' fields are guarded by the same lock: read and write them only in `body`.
    @inline(__always)
    package func withLock<Result>(at now: TimeInterval? = nil, _ body: (inout EngineState) -> Result) -> Result {
        lock.withLock {
            if let now, let recorder { recorder.operationTime = now }
            return body(&state)
        }
    }

    /// Empty or blank names become `nil`; names over ``maximumNameLength`` characters are cut. No Foundation character
    /// sets: the first non-blank scalar ends the scan.
    static func normalize(_ name: String?) -> String? {
        guard let name, let first = name.utf8.first else { return nil }
        // The usual name: starts with a visible ASCII character and is short. No scan at all.
        if first > 0x20, first < 0x7F, name.utf8.count <= maximumNameLength { return name }
        let isBlank = name.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x20, 0x09...0x0D: true
            case 0x00...0x7F: false
            default: scalar.properties.isWhitespace
            }
        }
        if isBlank { return nil }
        if name.utf8.count <= maximumNameLength { return name }  // UTF-8 bytes ≥ characters
        return name.count > maximumNameLength ? String(name.prefix(maximumNameLength)) : name
    }
}
