import BackgroundTaskKit
import Foundation

/// What a ``FlightRecorder`` concludes at launch when the previous run's last snapshot says
/// background-task assertions were held when the process vanished: it was probably terminated for
/// them (`0x8badf00d`), and these are the call sites that held them.
///
/// "Probable": the process may also have been terminated for another reason while holding them (memory
/// pressure, a crash). A matching MetricKit crash diagnostic turns it into a confirmed one
/// (`confirmation`; see ``FlightRecorder/match(_:)``).
public struct ProbableBackgroundTaskTermination: Codable, Equatable, Sendable {
    /// How strongly the snapshot points at a background-task termination.
    public enum Evidence: String, Codable, Sendable, Comparable {
        /// Assertions were held in the background; no expiry had started yet.
        case heldInBackground
        /// An expiry had started: handlers were running.
        case expiryInProgress
        /// An assertion was still held after its own expiration handler returned: the state the
        /// system terminates apps in.
        case heldAfterHandlers

        private var rank: Int {
            switch self {
            case .heldInBackground: 0
            case .expiryInProgress: 1
            case .heldAfterHandlers: 2
            }
        }

        /// Weaker evidence sorts first.
        public static func < (lhs: Evidence, rhs: Evidence) -> Bool { lhs.rank < rhs.rank }
    }

    /// The process that vanished.
    public var processID: Int32
    /// Its app build, if known.
    public var appBuild: String?
    /// Its app version, if known.
    public var appVersion: String?
    /// When its last snapshot was written, in seconds since 1970.
    public var lastSnapshotAt: TimeInterval
    /// The moment of that snapshot.
    public var lastMoment: FlightRecorderSnapshot.Moment
    /// How strongly it points at a background-task termination.
    public var evidence: Evidence
    /// The tasks held, oldest first.
    public var tasks: [FlightRecorderSnapshot.Task]
    /// Held tasks left out of the snapshot.
    public var omittedTaskCount: Int
    /// The MetricKit crash diagnostic that confirmed it, once one matched.
    public var confirmation: FieldConfirmation?

    /// The record a snapshot left by a vanished process gives, or `nil` when it does not suggest a
    /// background-task termination.
    public init?(snapshot: FlightRecorderSnapshot) {
        guard snapshot.suggestsBackgroundTaskTermination else { return nil }
        processID = snapshot.processID
        appBuild = snapshot.appBuild
        appVersion = snapshot.appVersion
        lastSnapshotAt = snapshot.writtenAt
        lastMoment = snapshot.moment
        tasks = snapshot.tasks
        omittedTaskCount = snapshot.omittedTaskCount
        evidence =
            if snapshot.tasks.contains(where: { $0.handlerReturned }) || snapshot.moment == .heldAfterHandlers {
                .heldAfterHandlers
            } else if snapshot.tasks.contains(where: { $0.expiryStarted }) {
                .expiryInProgress
            } else {
                .heldInBackground
            }
        confirmation = nil
    }

    /// The call sites that held assertions, each once: those still held after their handler returned
    /// first, then the rest, oldest first.
    public var callSites: [BackgroundTaskCallSite] {
        var seen: Set<BackgroundTaskCallSite> = []
        let suspects = tasks.filter(\.handlerReturned) + tasks.filter { !$0.handlerReturned }
        return suspects.map(\.callSite).filter { seen.insert($0).inserted }
    }
}

/// A MetricKit crash diagnostic matched to a ``ProbableBackgroundTaskTermination``.
public struct FieldConfirmation: Codable, Equatable, Sendable {
    /// How the diagnostic was tied to the run.
    public enum Match: String, Codable, Sendable {
        /// Same process id and build (MetricKit reports the process id from iOS 17).
        case processID
        /// Same build, and the snapshot was written within the diagnostic payload's time range.
        case buildAndTime
    }

    /// The diagnostic's kind: a background-task timeout (`0x2182bad2`), the watchdog (`0x8badf00d`), or
    /// too many assertions (`0xbada5e47`).
    public var kind: CrashDiagnosticRecord.Kind
    /// The diagnostic's termination reason, as MetricKit gave it.
    public var terminationReason: String?
    /// How it was matched.
    public var match: Match

    /// Creates a confirmation.
    public init(kind: CrashDiagnosticRecord.Kind, terminationReason: String?, match: Match) {
        self.kind = kind
        self.terminationReason = terminationReason
        self.match = match
    }
}
