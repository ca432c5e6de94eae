import Foundation

/// App-wide control of background tasks: tracks every outstanding task, ends them all when time runs out, caps how many
/// there can be, and can share one system assertion among them all.
/// ```swift
/// let manager = BackgroundTaskManager()
///
/// func upload(_ photo: Photo) throws(BackgroundTaskError) {
///     let task = try manager.beginTask("Upload \(photo.id)") { uploader.cancel(photo) }
///     uploader.upload(photo) { _ in task.end() }
/// }
/// ```
/// On the first expiry of any of its assertions, the manager runs every task's cleanup in begin order on the main
/// actor, then ends all of them, inside that handler. By default it **coalesces**: any number of tasks share one system
/// assertion, begun with the first task and ended after the last (after a short linger, so bursts do not churn) or on
/// expiry. The system sees one assertion, so its limit of about 1000 and the per-call cost vanish; nothing is lost:
/// time is the app's, not each task's, and expiry ends every task anyway. Turn it off
/// (``Configuration/coalescesAssertions``) to see each task by name in system logs.
/// > Important: Keep each returned ``SafeBackgroundTask`` until its work is done and call ``SafeBackgroundTask/end()``;
/// > the manager's expiry and ``endAll()`` are the safety nets.
public final class BackgroundTaskManager: Sendable {
    /// How a manager behaves.
    public struct Configuration: Sendable, Equatable {
        /// Running tasks allowed at once; one more is refused with ``BackgroundTaskError/limitReached(limit:)``.
        /// Default 100, far below the system's ~1000. `0` or less refuses every task; `Int.max` is no cap.
        public var maximumOutstandingTasks: Int = 100
        /// When set, a task is refused with ``BackgroundTaskError/insufficientTimeRemaining(remaining:required:)``
        /// while less background time than this remains. Off by default; WWDC20 advises
        /// ``recommendedMinimumTimeRemaining`` (5 s): below it the system may not call handlers. `0` or less never
        /// refuses; `.infinity` refuses every task begun in the background; NaN counts as `nil`.
        public var minimumTimeRemaining: TimeInterval?
        /// Share one system assertion among all tasks. Default `true`.
        public var coalescesAssertions = true
        /// Coalescing: seconds the shared assertion outlives its last task (default 0.5; `0` or less, NaN, infinity:
        /// none; max ``maximumLinger``); never during an expiry, or in the background unless 5 s would still be left
        /// after it (a linger into the expiry would only keep an idle app awake).
        public var linger: TimeInterval = 0.5
        /// Coalescing: the shared assertion's name in the system's logs.
        public var sharedAssertionName = "BackgroundTaskManager"
        /// Hold the system assertion only while the app is in the background. Tasks run at once, as always; the shared
        /// assertion is raised when the app leaves the foreground (at once if already in the background) and dropped
        /// when it returns or the last task ends, so a 45 s upload begun in the foreground never draws iOS's "created
        /// over 30 seconds ago" warning there, and background time goes only to what still runs when the app leaves.
        /// Needs a backend that reports the app's state (``BackgroundTaskBackend/applicationStateReporting``:
        /// `.uiApplication` and the simulator do); with others, the assertion is raised with the first task. Implies
        /// one shared assertion, whatever ``coalescesAssertions`` says. If the system refuses it when the app leaves,
        /// tasks run on without extra time. Off by default, so a manager behaves alike with every backend.
        public var holdsAssertionOnlyInBackground = false
        /// Coalescing: the age at which the shared assertion is handed over to a fresh one, begun before the old one
        /// ends (so protection never lapses). Otherwise overlapping tasks would keep one assertion alive as long as
        /// they keep coming, and iOS would warn it "was created over 30 seconds ago" though no task is that old.
        /// Default 20 s; `nil`, NaN, infinity or `0` or less: no renewal; below 1 s counts as 1 s.
        public var sharedAssertionRenewalAge: TimeInterval? = 20
        /// The longest ``linger``: 10 s.
        public static let maximumLinger: TimeInterval = 10
        /// The minimum time remaining WWDC20 recommends: 5 seconds.
        public static let recommendedMinimumTimeRemaining: TimeInterval = 5
        /// The defaults: coalescing, at most 100 tasks, no time guard.
        public init() {}

        /// A configuration with the values given and the defaults for the rest.
        /// - Parameters:
        ///   - maximumOutstandingTasks: See ``maximumOutstandingTasks``.
        ///   - minimumTimeRemaining: See ``minimumTimeRemaining``.
        ///   - coalescesAssertions: See ``coalescesAssertions``.
        ///   - linger: See ``linger``.
        ///   - sharedAssertionName: See ``sharedAssertionName``.
        ///   - holdsAssertionOnlyInBackground: See ``holdsAssertionOnlyInBackground``.
        ///   - sharedAssertionRenewalAge: See ``sharedAssertionRenewalAge``.
        public init(
            maximumOutstandingTasks: Int = 100,
            minimumTimeRemaining: TimeInterval? = nil,
            coalescesAssertions: Bool = true,
            linger: TimeInterval = 0.5,
            sharedAssertionName: String = "BackgroundTaskManager",
            holdsAssertionOnlyInBackground: Bool = false,
            sharedAssertionRenewalAge: TimeInterval? = 20
        ) {
            self.maximumOutstandingTasks = maximumOutstandingTasks
            self.minimumTimeRemaining = minimumTimeRemaining
            self.coalescesAssertions = coalescesAssertions
            self.linger = linger
            self.sharedAssertionName = sharedAssertionName
            self.holdsAssertionOnlyInBackground = holdsAssertionOnlyInBackground
            self.sharedAssertionRenewalAge = sharedAssertionRenewalAge
        }
    }

    /// The configuration in force.
    public let configuration: Configuration
    package let engine: TaskEngine
    let backend: any BackgroundTaskBackend

    /// Creates a manager.
    ///
    /// An SDK that owns its manager passes `leakHandler`, so that its tasks' leaks reach its own logs, not the host
    /// app's process-wide ``BackgroundTaskLeakReporting/handler``:
    /// ```swift
    /// let manager = BackgroundTaskManager(leakHandler: { leak in MySDKLog.error("\(leak)") })
    /// ```
    /// - Parameters:
    ///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default.
    ///   - configuration: Limits and coalescing.
    ///   - leakHandler: Called for each of this manager's tasks released while running and ended by the safety net, on
    ///     the releasing thread, never under a package lock; `nil` (the default): ``BackgroundTaskLeakReporting``'s
    ///     handler for the module that began the task, or its process-wide one. Tasks on the simulator are not
    ///     reported to handlers: it records them (`safetyNetEnds`) and `expectNoLeaks()` fails naming their lines.
    public convenience init(
        backend: (any BackgroundTaskBackend)? = nil, configuration: Configuration = Configuration(),
        leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)? = nil
    ) {
        self.init(backend: backend, configuration: configuration, schedule: nil, leakHandler: leakHandler)
    }

    /// Creates a manager with timers on `schedule` (tests) and tasks recorded by `recorder` (diagnostics).
    package init(
        backend: (any BackgroundTaskBackend)?,
        configuration: Configuration,
        schedule: (@Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void)?,
        now: (@Sendable () -> TimeInterval)? = nil,
        recorder: (any TaskRecorder)? = nil,
        leakHandler: (@Sendable (BackgroundTaskLeak) -> Void)? = nil
    ) {
        self.configuration = configuration
        var options = TaskEngine.Options()
        options.maximumOutstandingTasks = max(configuration.maximumOutstandingTasks, 0)
        options.minimumTimeRemaining = configuration.minimumTimeRemaining.flatMap { $0.isNaN || $0 <= 0 ? nil : $0 }
        options.expiresAllTogether = true
        options.coalescing = configuration.coalescesAssertions || configuration.holdsAssertionOnlyInBackground
        options.holdsOnlyInBackground = configuration.holdsAssertionOnlyInBackground
        options.linger =
            configuration.linger.isFinite ? min(max(configuration.linger, 0), Configuration.maximumLinger) : 0
        options.renewalAge = configuration.sharedAssertionRenewalAge.flatMap {
            $0.isFinite && $0 > 0 ? max($0, 1) : nil
        }
        options.sharedAssertionName = configuration.sharedAssertionName
        if let schedule { options.schedule = schedule }
        if let now { options.now = now }
        self.backend = DefaultBackend.resolve(backend)
        engine = TaskEngine(backend: self.backend, options: options, recorder: recorder, leakHandler: leakHandler)
    }

    /// Begins a task tracked by this manager.
    /// - Parameters:
    ///   - name: A name for the task.
    ///   - onExpiration: Called on the main actor when time runs out (for any of the manager's tasks), in begin order
    ///     with the other cleanups, before all tasks end.
    ///   - fileID: Where the task is begun, for diagnostics; leave the default.
    ///   - line: Where the task is begun, for diagnostics; leave the default.
    ///   - function: Where the task is begun, for diagnostics; leave the default.
    /// - Returns: The running task; call ``SafeBackgroundTask/end()`` when its work is done.
    /// - Throws: ``BackgroundTaskError`` (cap reached, too little time, refused): defer the work, or run it anyway.
    public func beginTask(
        _ name: String?,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function
    ) throws(BackgroundTaskError) -> SafeBackgroundTask {
        let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: function)
        let (record, refusal) = engine.begin(name: name, callSite: callSite, cleanup: onExpiration, backend: backend)
        if let refusal { throw refusal }
        return SafeBackgroundTask(record: record)
    }

    /// Ends every outstanding task and its assertion now, without running cleanups (for example when the app returns to
    /// the foreground and the work no longer needs protecting).
    public func endAll() {
        engine.endAll()
    }

    /// The tasks still running, in begin order, with their names, call sites and ages.
    public var outstandingTasks: [OutstandingBackgroundTask] {
        engine.outstanding
    }
}
