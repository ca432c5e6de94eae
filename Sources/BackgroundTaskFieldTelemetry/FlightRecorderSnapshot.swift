import BackgroundTaskDiagnostics
import BackgroundTaskKit
import Foundation

/// What a ``FlightRecorder`` persists at each risky moment: the process, the app's build, and the
/// background tasks held at that moment, with whether their expiry had started and whether their
/// handlers had returned.
///
/// The next launch reads the last one: if it says assertions were held in the background when the
/// process vanished, the app probably was terminated for them
/// (``ProbableBackgroundTaskTermination``). The encoding is stable JSON (`bgtask report` prints it).
public struct FlightRecorderSnapshot: Codable, Equatable, Sendable {
    /// The schema version this package writes.
    public static let currentVersion = 1

    /// The moment a snapshot was taken at.
    public enum Moment: String, Codable, Sendable, CaseIterable {
        /// The recorder started (the app launched).
        case launched
        /// The app entered the background.
        case enteredBackground
        /// The app returned to the foreground.
        case enteredForeground
        /// A task became stale (held longer than the sources' stale age).
        case staleTask
        /// Background time ran out: an expiration handler was entered.
        case expiryStarted
        /// An expiration handler returned.
        case expirationHandlerReturned
        /// The tracer saw an assertion still held after its handler returned.
        case heldAfterHandlers
        /// The last task held ended.
        case lastTaskEnded
        /// A task ended in the background while others are still held.
        case taskEnded
        /// A task began in the background (or while the state is unknown).
        case taskBegan
        /// The app asked for a snapshot (``FlightRecorder/recordNow()``).
        case requested
    }

    /// One task held when the snapshot was taken.
    public struct Task: Codable, Equatable, Sendable {
        /// Where it was begun: a source line (`DiagnosingBackend`), or the calling image and symbol
        /// (`BackgroundTaskTracer`).
        public var callSite: BackgroundTaskCallSite
        /// Its name (cut to the recorder's ``FlightRecorder/Configuration/maximumNameLength``).
        public var name: String?
        /// Seconds it had been held.
        public var age: TimeInterval
        /// Whether its expiry had started (its expiration handler was called).
        public var expiryStarted: Bool
        /// Whether its expiration handler had returned while it was still held.
        public var handlerReturned: Bool
        /// What saw it: `"backend"` (a `DiagnosingBackend`) or `"tracer"` (a `BackgroundTaskTracer`).
        public var source: String

        /// Creates a task record.
        public init(
            callSite: BackgroundTaskCallSite, name: String?, age: TimeInterval, expiryStarted: Bool,
            handlerReturned: Bool, source: String
        ) {
            self.callSite = callSite
            self.name = name
            self.age = age
            self.expiryStarted = expiryStarted
            self.handlerReturned = handlerReturned
            self.source = source
        }
    }

    /// The schema version.
    public var version: Int
    /// The process that wrote it.
    public var processID: Int32
    /// The app's build (`CFBundleVersion`), if known.
    public var appBuild: String?
    /// The app's version (`CFBundleShortVersionString`), if known.
    public var appVersion: String?
    /// When it was written, in seconds since 1970.
    public var writtenAt: TimeInterval
    /// The moment it was written at.
    public var moment: Moment
    /// Whether the app was in the background; `nil` when the recorder cannot tell.
    public var inBackground: Bool?
    /// The tasks held, oldest first, at most the recorder's ``FlightRecorder/Configuration/maximumTasks``.
    public var tasks: [Task]
    /// Tasks held but left out to keep the snapshot small.
    public var omittedTaskCount: Int

    /// Creates a snapshot.
    public init(
        version: Int = FlightRecorderSnapshot.currentVersion, processID: Int32, appBuild: String?,
        appVersion: String?, writtenAt: TimeInterval, moment: Moment, inBackground: Bool?, tasks: [Task],
        omittedTaskCount: Int = 0
    ) {
        self.version = version
        self.processID = processID
        self.appBuild = appBuild
        self.appVersion = appVersion
        self.writtenAt = writtenAt
        self.moment = moment
        self.inBackground = inBackground
        self.tasks = tasks
        self.omittedTaskCount = omittedTaskCount
    }

    /// Whether a process that vanished after writing this snapshot was probably terminated for a
    /// background task: it held assertions and was not known to be in the foreground.
    public var suggestsBackgroundTaskTermination: Bool {
        !(tasks.isEmpty && omittedTaskCount == 0) && inBackground != false
    }
}
