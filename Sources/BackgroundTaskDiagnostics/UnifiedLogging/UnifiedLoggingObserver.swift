@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit
import Foundation

/// An observer that writes every background task to Apple's unified logging: a message per event in
/// `os.Logger`, and an `OSSignposter` interval per task — from began to how it finished — with
/// events for expiry and for the expiration handler's entry and exit (the WWDC20 telemetry), so
/// Instruments shows each task's lifetime and the Console shows which line leaked.
///
/// ```swift
/// let observer = UnifiedLoggingObserver(writer: OSLogWriter(subsystem: "com.example.app"))
/// manager.diagnostics?.addObserver(observer)
/// ```
///
/// Task names are `.private` by default: they are redacted in logs collected from devices, because
/// names often carry user data (an album's or a file's name). Call sites and times are public.
/// Routine events (began, ended) are written at the `debug` level, expiry and refusals at `error`,
/// and a leak the deinit safety net caught at `fault`.
///
/// The writer is called on the observer's queue, never under a lock of the package's.
public final class UnifiedLoggingObserver<Writer: UnifiedLogWriting>: BackgroundTaskObserver {
    /// What the observer writes.
    public struct Configuration: Sendable, Equatable {
        /// How task names appear in logs. Default `.private`.
        public var taskNamePrivacy = BackgroundTaskLogPrivacy.private
        /// Whether began and ended are logged (at the `debug` level). Intervals are written either way.
        /// Default `true`.
        public var logsRoutineEvents = true

        /// The defaults: private names, routine events logged at `debug`.
        public init() {}
    }

    /// The writer every message and interval goes to.
    public let writer: Writer
    /// The configuration in force.
    public let configuration: Configuration
    /// The intervals of the tasks that have begun and not finished, by task.
    private let intervals = Locked<[BackgroundTaskEvent.TaskID: OpenInterval]>([:])

    private struct OpenInterval {
        let interval: Writer.Interval
        let beganAt: TimeInterval
        var expired = false
    }

    /// Creates an observer that writes to `writer`.
    public init(writer: Writer, configuration: Configuration = Configuration()) {
        self.writer = writer
        self.configuration = configuration
    }

    /// Tasks whose interval is open: begun, not finished (for tests and for leak hunting).
    public var openIntervalCount: Int {
        intervals.withLock { $0.count }
    }

    /// Writes the event's message and moves its task's interval along.
    public func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        let site = "begun at \(event.callSite)"
        switch event.kind {
        case .began:
            let interval = writer.beginInterval(named: event.name, privacy: configuration.taskNamePrivacy)
            intervals.withLock { $0[event.taskID] = OpenInterval(interval: interval, beganAt: event.time) }
            if configuration.logsRoutineEvents { log(.debug, "began; \(site)", event) }
        case .ended:
            let age = close(event, outcome: .ended).map { " after \(Self.seconds(event.time - $0))" } ?? ""
            if configuration.logsRoutineEvents { log(.debug, "ended\(age); \(site)", event) }
        case .expired:
            let open = intervals.withLock { intervals -> OpenInterval? in
                intervals[event.taskID]?.expired = true
                return intervals[event.taskID]
            }
            if let open { writer.emitEvent(.expired, in: open.interval) }
            log(.error, "expired: background time ran out before it was ended; \(site)", event)
        case .expirationHandlerEntered:
            if let open = intervals.withLock({ $0[event.taskID] }) {
                writer.emitEvent(.expirationHandlerEntered, in: open.interval)
            }
            log(.info, "expiration handler entered; \(site)", event)
        case .expirationHandlerExited(let duration):
            let open = intervals.withLock { intervals -> OpenInterval? in
                guard let open = intervals[event.taskID], open.expired else { return intervals[event.taskID] }
                return intervals.removeValue(forKey: event.taskID)
            }
            if let open {
                writer.emitEvent(.expirationHandlerExited, in: open.interval)
                if open.expired { writer.endInterval(open.interval, outcome: .expired) }
            }
            log(.info, "expiration handler returned after \(Self.seconds(duration)); \(site)", event)
        case .endedBySafetyNet:
            close(event, outcome: .endedBySafetyNet)
            log(
                .fault,
                "leaked: released while running and ended by the safety net; keep the task and call end(); \(site)",
                event
            )
        case .refused(let error):
            close(event, outcome: .refused)
            log(.error, "refused: \(error); \(site)", event)
        case .stale(let age):
            log(.error, "still running after \(Self.seconds(age)): end it when its work is done; \(site)", event)
        case .limitApproaching(let outstanding, let limit):
            log(.error, "is number \(outstanding) running at once, near the limit of \(limit); \(site)", event)
        case .heldAfterExpirationHandlers:
            log(
                .fault,
                "still held after its expiration handler returned: the system terminates the app for it; \(site)",
                event
            )
        case .rescued:
            close(event, outcome: .expired)
            log(.fault, "rescued: ended by the tracer because its owner's handler did not end it; \(site)", event)
        case .endedTwice:
            log(.error, "ended twice; \(site)", event)
        case .endedAfterRescue:
            log(.error, "ended by its owner after the tracer's rescue (the end was not passed on); \(site)", event)
        }
    }

    /// Ends the task's interval, if open; returns when it began.
    @discardableResult
    private func close(_ event: BackgroundTaskEvent, outcome: BackgroundTaskSignpostOutcome) -> TimeInterval? {
        guard let open = intervals.withLock({ $0.removeValue(forKey: event.taskID) }) else { return nil }
        writer.endInterval(open.interval, outcome: outcome)
        return open.beganAt
    }

    private func log(_ level: BackgroundTaskLogLevel, _ text: String, _ event: BackgroundTaskEvent) {
        writer.log(level, text, taskName: event.name, privacy: configuration.taskNamePrivacy)
    }

    private static func seconds(_ value: TimeInterval) -> String {
        formatSeconds(value) + " s"
    }
}
