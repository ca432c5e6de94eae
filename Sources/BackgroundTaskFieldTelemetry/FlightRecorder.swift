import BackgroundTaskDiagnostics
import BackgroundTaskKit
import Dispatch
import Foundation

/// Keeps the last moments of the app's background tasks on disk, so that the next launch knows
/// whether the previous run was probably terminated for one, and by which call site, and can tie
/// MetricKit's field reports to it.
///
/// Create one at launch over the sources that see the app's tasks (a `DiagnosingBackend` wrapping
/// the default backend, a `BackgroundTaskTracer`, or both) and keep it for the life of the process:
///
/// ```swift
/// let diagnostics = DiagnosingBackend(wrapping: .platformDefault)
/// let recorder = FlightRecorder(
///     storage: FileFlightRecorderStorage(directory: supportDirectory),
///     sources: [diagnostics, BackgroundTaskTracer.install()],
///     applicationState: diagnostics.applicationStateReporting
/// )
/// if case .probableBackgroundTaskTermination(let record) = recorder.previousRun {
///     analytics.log("bg-task-kill", record.callSites.map(\.description))
/// }
/// ```
///
/// It writes a small snapshot (``FlightRecorderSnapshot``) at the risky moments: launch, entering the
/// background and the foreground, a stale task, an expiry's handlers entered and returned, an
/// assertion held after its handlers, and when tasks end. Writing never happens on the caller's
/// thread: events only schedule it on the recorder's own serial queue, where bursts are coalesced into
/// one write of the latest state. Each write is atomic (``FlightRecorderStorage``), and a snapshot is
/// bounded (``Configuration/maximumTasks``, ``Configuration/maximumNameLength``): a few kilobytes.
public final class FlightRecorder: Sendable {
    /// Bounds and identity.
    public struct Configuration: Sendable, Equatable {
        /// Tasks kept per snapshot, oldest first; clamped to 1...256. Default 32.
        public var maximumTasks: Int
        /// Characters kept of each task name; clamped to 0...1024. Default 128.
        public var maximumNameLength: Int
        /// Probable terminations kept for matching with MetricKit; clamped to 1...256. Default 16.
        public var keptTerminations: Int
        /// The app's build, as MetricKit reports it (`applicationBuildVersion`); default
        /// `CFBundleVersion` of the main bundle.
        public var appBuild: String?
        /// The app's version; default `CFBundleShortVersionString` of the main bundle.
        public var appVersion: String?

        /// A configuration with the values given and the defaults for the rest.
        ///
        /// - Parameters:
        ///   - maximumTasks: See `maximumTasks`.
        ///   - maximumNameLength: See `maximumNameLength`.
        ///   - keptTerminations: See `keptTerminations`.
        ///   - appBuild: See `appBuild`.
        ///   - appVersion: See `appVersion`.
        public init(
            maximumTasks: Int = 32,
            maximumNameLength: Int = 128,
            keptTerminations: Int = 16,
            appBuild: String? = Bundle.main.object(forInfoDictionaryKey: "CFBundleVersion") as? String,
            appVersion: String? = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
        ) {
            self.maximumTasks = min(max(maximumTasks, 1), 256)
            self.maximumNameLength = min(max(maximumNameLength, 0), 1024)
            self.keptTerminations = min(max(keptTerminations, 1), 256)
            self.appBuild = appBuild
            self.appVersion = appVersion
        }
    }

    /// What the previous run's last snapshot says.
    public enum PreviousRun: Equatable, Sendable {
        /// No snapshot: the first launch with a recorder.
        case none
        /// The previous run held no assertions in the background when it ended.
        case clean(FlightRecorderSnapshot)
        /// The previous run vanished while holding assertions in the background.
        case probableBackgroundTaskTermination(ProbableBackgroundTaskTermination)
        /// The stored snapshot could not be read or decoded (the description says why); it is
        /// replaced by this run's.
        case unreadable(String)
    }

    /// The file names in the storage.
    public static let snapshotFileName = "background-task-snapshot.json"
    /// The file of probable terminations kept for matching.
    public static let terminationsFileName = "background-task-terminations.json"

    /// The bounds in force.
    public let configuration: Configuration
    private let storage: any FlightRecorderStorage
    private let sources: [any FlightRecorderSource]
    private let processID: Int32
    private let queue = DispatchQueue(label: "BackgroundTaskKit.flightRecorder", qos: .userInitiated)
    private let state = Locked(RecorderState())

    private struct RecorderState {
        var pendingMoment: FlightRecorderSnapshot.Moment?
        var inBackground: Bool?
        var previousRun: PreviousRun = .none
        var lastSnapshot: FlightRecorderSnapshot?
        var lastError: String?
        var writes = 0
        var observations: [BackgroundTaskObserverHandle] = []
        var criticalTokens: [(CriticalMoments, UInt64)] = []
        var stateObservation: ApplicationStateObservation?
    }

    /// Creates the recorder, reads what the previous run left, and writes this run's first snapshot
    /// (on its queue: the caller does no file work).
    ///
    /// - Parameters:
    ///   - storage: Where the files are kept.
    ///   - sources: What sees the app's tasks.
    ///   - configuration: Bounds and identity.
    ///   - applicationState: Reports background and foreground (`diagnostics.applicationStateReporting`);
    ///     without it snapshots say `inBackground: nil`, and a held assertion always counts at the
    ///     next launch.
    ///   - processID: This process's id; default `getpid()`.
    public init(
        storage: any FlightRecorderStorage,
        sources: [any FlightRecorderSource],
        configuration: Configuration = Configuration(),
        applicationState: (any ApplicationStateReporting)? = nil,
        processID: Int32 = getpid()
    ) {
        self.storage = storage
        self.sources = sources
        self.configuration = configuration
        self.processID = processID
        queue.async { [self] in readPreviousRun() }
        record(.launched)
        let handles = sources.map { source in
            source.addObserver(ClosureBackgroundTaskObserver { [weak self] event in self?.observe(event) })
        }
        let tokens = sources.compactMap { source -> (CriticalMoments, UInt64)? in
            guard let reporting = source as? any CriticalMomentReporting else { return nil }
            let moments = reporting.criticalMoments
            return (
                moments, moments.add { [weak self] moment in self?.writeNow(FlightRecorderSnapshot.Moment(moment)) }
            )
        }
        let observation = applicationState?.observeBackgroundState { [weak self] inBackground in
            guard let self else { return }
            state.withLock { $0.inBackground = inBackground }
            record(inBackground ? .enteredBackground : .enteredForeground)
        }
        state.withLock {
            $0.observations = handles
            $0.criticalTokens = tokens
            $0.stateObservation = observation
        }
    }

    deinit {
        let (observations, tokens, stateObservation) = state.withLock {
            ($0.observations, $0.criticalTokens, $0.stateObservation)
        }
        for observation in observations { observation.remove() }
        for (moments, token) in tokens { moments.remove(token) }
        stateObservation?.cancel()
    }

    // MARK: - Reading

    /// What the previous run left: waits for the launch's read (a few milliseconds at most).
    public var previousRun: PreviousRun {
        queue.sync { state.withLock { $0.previousRun } }
    }

    /// The probable terminations kept, oldest first, with their MetricKit confirmations.
    public var terminations: [ProbableBackgroundTaskTermination] {
        queue.sync { readTerminations() }
    }

    /// The last snapshot this run wrote.
    public var lastSnapshot: FlightRecorderSnapshot? {
        state.withLock { $0.lastSnapshot }
    }

    /// The last write or read error, if any (a full disk, a protected file): the recorder never
    /// throws or traps.
    public var lastError: String? {
        state.withLock { $0.lastError }
    }

    /// Snapshots written by this run.
    public var writeCount: Int {
        state.withLock { $0.writes }
    }

    // MARK: - Recording

    /// Writes a snapshot of the tasks held now (on the recorder's queue; returns at once).
    public func recordNow() {
        record(.requested)
    }

    /// Waits until every snapshot scheduled so far is written (for tests, and before a planned exit).
    public func waitUntilWritten() {
        queue.sync {}
    }

    /// Matches MetricKit crash diagnostics to the kept probable terminations and records each match
    /// (``ProbableBackgroundTaskTermination/confirmation``). Only diagnostics whose kind concerns
    /// background tasks (``CrashDiagnosticRecord/Kind/concernsBackgroundTasks``) are matched: by process id and build when MetricKit gives the process id, otherwise by build
    /// and the payload's time range.
    ///
    /// - Parameter diagnostics: The payload's crash diagnostics (``CrashDiagnosticRecord``).
    /// - Returns: The terminations that matched, with their confirmation.
    @discardableResult
    public func match(_ diagnostics: [CrashDiagnosticRecord]) -> [ProbableBackgroundTaskTermination] {
        queue.sync {
            var kept = readTerminations()
            let matched = TerminationMatching.match(diagnostics, into: &kept)
            if !matched.isEmpty { writeTerminations(kept) }
            return matched
        }
    }

    // MARK: - Private

    private func observe(_ event: BackgroundTaskEvent) {
        switch event.kind {
        case .stale: record(.staleTask)
        case .expirationHandlerEntered: record(.expiryStarted)
        case .expirationHandlerExited: record(.expirationHandlerReturned)
        case .heldAfterExpirationHandlers: record(.heldAfterHandlers)
        case .ended, .endedBySafetyNet, .rescued, .expired, .endedAfterRescue: record(.lastTaskEnded)
        case .began: if state.withLock({ $0.inBackground != false }) { record(.taskBegan) }
        case .refused, .limitApproaching, .endedTwice: break
        }
    }

    /// Schedules a write; a burst of moments becomes one write, under the most telling moment.
    private func record(_ moment: FlightRecorderSnapshot.Moment) {
        let schedule = state.withLock { state -> Bool in
            guard let pending = state.pendingMoment else {
                state.pendingMoment = moment
                return true
            }
            if Self.priority(of: moment) >= Self.priority(of: pending) { state.pendingMoment = moment }
            return false
        }
        if schedule { queue.async { [self] in writeSnapshot() } }
    }

    private static func priority(of moment: FlightRecorderSnapshot.Moment) -> Int {
        switch moment {
        case .lastTaskEnded, .taskEnded, .taskBegan, .requested, .launched: 0
        case .enteredForeground, .enteredBackground: 1
        case .staleTask: 2
        case .expiryStarted: 3
        case .expirationHandlerReturned: 4
        case .heldAfterHandlers: 5
        }
    }

    /// On the queue: takes the latest state of the sources and writes it under the pending moment.
    private func writeSnapshot() {
        guard
            let requested = state.withLock({ state -> FlightRecorderSnapshot.Moment? in
                defer { state.pendingMoment = nil }
                return state.pendingMoment
            })
        else { return }
        write(requested)
    }

    /// A critical moment, on the thread where it happened (`CriticalMoments`): written before this
    /// returns, so before the system hears of the end (or the handlers are over). The last task's end
    /// is written only in the background (or when the state is unknown) and only when the snapshot on
    /// disk still lists tasks: once per background session, one small file write.
    private func writeNow(_ moment: FlightRecorderSnapshot.Moment) {
        if moment == .lastTaskEnded {
            let needed = state.withLock { state in
                state.inBackground != false && !(state.lastSnapshot?.tasks.isEmpty ?? true)
            }
            guard needed else { return }
        }
        queue.sync { write(moment) }
    }

    /// On the queue: takes the state of the sources and writes it under `requested`, or not at all
    /// when nothing a next launch would conclude has changed.
    private func write(_ requested: FlightRecorderSnapshot.Moment) {
        var tasks: [FlightRecorderSnapshot.Task] = []
        var omitted = 0
        for source in sources {
            let taken = source.flightRecorderTasks(
                limit: configuration.maximumTasks, maximumNameLength: configuration.maximumNameLength)
            tasks += taken.tasks
            omitted += taken.omitted
        }
        tasks.sort { $0.age > $1.age }
        if tasks.count > configuration.maximumTasks {
            omitted += tasks.count - configuration.maximumTasks
            tasks.removeLast(tasks.count - configuration.maximumTasks)
        }
        let (inBackground, previous) = state.withLock { ($0.inBackground, $0.lastSnapshot) }
        var moment = requested
        if requested == .lastTaskEnded {
            // An end while others still run matters only in the background; one after the last
            // matters only if the snapshot on disk lists tasks.
            if !tasks.isEmpty, inBackground == false { return }
            if tasks.isEmpty, previous?.tasks.isEmpty ?? false { return }
            if !tasks.isEmpty { moment = .taskEnded }
        }
        if requested == .taskBegan, tasks.isEmpty { return }
        // A write that comes later (an event delivered late) keeps the most telling label the state
        // still deserves: a task held after its handler returned is that, whatever moment asked.
        if tasks.contains(where: \.handlerReturned), Self.priority(of: .heldAfterHandlers) > Self.priority(of: moment) {
            moment = .heldAfterHandlers
        } else if tasks.contains(where: \.expiryStarted), Self.priority(of: .expiryStarted) > Self.priority(of: moment)
        {
            moment = .expiryStarted
        }
        let snapshot = FlightRecorderSnapshot(
            processID: processID, appBuild: configuration.appBuild, appVersion: configuration.appVersion,
            writtenAt: Date().timeIntervalSince1970, moment: moment, inBackground: inBackground, tasks: tasks,
            omittedTaskCount: omitted
        )
        do {
            try storage.write(try Self.encode(snapshot), to: Self.snapshotFileName)
            state.withLock {
                $0.lastSnapshot = snapshot
                $0.writes += 1
            }
        } catch {
            state.withLock { $0.lastError = "writing the snapshot: \(error)" }
        }
    }

    /// On the queue, first: what the previous run left.
    private func readPreviousRun() {
        let outcome: PreviousRun
        do {
            if let data = try storage.read(Self.snapshotFileName) {
                let snapshot = try JSONDecoder().decode(FlightRecorderSnapshot.self, from: data)
                if snapshot.processID != processID, let record = ProbableBackgroundTaskTermination(snapshot: snapshot) {
                    outcome = .probableBackgroundTaskTermination(record)
                    var kept = readTerminations()
                    kept.append(record)
                    writeTerminations(Array(kept.suffix(configuration.keptTerminations)))
                } else {
                    outcome = .clean(snapshot)
                }
            } else {
                outcome = .none
            }
        } catch {
            outcome = .unreadable("\(error)")
        }
        state.withLock { $0.previousRun = outcome }
    }

    private func readTerminations() -> [ProbableBackgroundTaskTermination] {
        do {
            guard let data = try storage.read(Self.terminationsFileName) else { return [] }
            return try JSONDecoder().decode([ProbableBackgroundTaskTermination].self, from: data)
        } catch {
            state.withLock { $0.lastError = "reading the terminations: \(error)" }
            return []
        }
    }

    private func writeTerminations(_ terminations: [ProbableBackgroundTaskTermination]) {
        do {
            try storage.write(try Self.encode(terminations), to: Self.terminationsFileName)
        } catch {
            state.withLock { $0.lastError = "writing the terminations: \(error)" }
        }
    }

    private static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
