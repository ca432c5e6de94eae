@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

/// The calls ``UnifiedLoggingObserver`` makes on Apple's unified logging: one `os.Logger` message and
/// one `OSSignposter` interval per task, with events inside it.
///
/// This is the mirror of the `os` calls, one level up from the SDK: an `OSLogMessage` can only be
/// built by the compiler from a string literal at the call site (that is how its privacy works), so
/// no protocol can copy `Logger.log(level:_:)` itself. The observer decides everything — what to say,
/// at which level, which parts are private, when an interval begins and ends — and hands the result
/// to a writer; `OSLogWriter` (Apple platforms only) turns each call into one `os` call with the
/// privacy given. On Linux the tests check the observer against a recording writer.
public protocol UnifiedLogWriting: Sendable {
    /// What ``beginInterval(named:privacy:)`` returns and the interval's later calls take:
    /// an `OSSignpostIntervalState` and its signpost ID, on Apple platforms.
    associatedtype Interval: Sendable

    /// Writes one message. `text` is public; `taskName`, when present, is appended with `privacy`.
    func log(_ level: BackgroundTaskLogLevel, _ text: String, taskName: String?, privacy: BackgroundTaskLogPrivacy)

    /// Begins a task's signpost interval, described by its name with `privacy`.
    func beginInterval(named taskName: String?, privacy: BackgroundTaskLogPrivacy) -> Interval

    /// Marks an event inside a task's interval (expiration handler entered or exited).
    func emitEvent(_ event: BackgroundTaskSignpostEvent, in interval: Interval)

    /// Ends a task's interval, saying how the task finished.
    func endInterval(_ interval: Interval, outcome: BackgroundTaskSignpostOutcome)
}

/// The level of a message, as `OSLogType` has them.
public enum BackgroundTaskLogLevel: String, Sendable, CaseIterable {
    /// Routine: a task began or ended. Not kept unless a debugger or `log stream --debug` asks.
    case debug
    /// Worth keeping briefly: an expiration handler ran.
    case info
    /// Worth noting: the default level.
    case notice
    /// Something went wrong: a task expired, was refused, or became stale.
    case error
    /// A bug in the app: a task leaked and the deinit safety net ended it.
    case fault
}

/// Whether a task's name appears in logs collected from a device.
public enum BackgroundTaskLogPrivacy: Sendable, Equatable {
    /// Redacted as `<private>` unless the device has a debugger or a profile that reveals it (the
    /// default: names may hold user data such as file or album names).
    case `private`
    /// Logged as is: for names that never contain user data.
    case `public`
}

/// An event inside a task's signpost interval.
public enum BackgroundTaskSignpostEvent: String, Sendable, CaseIterable {
    /// Time ran out for the task.
    case expired = "Expired"
    /// Its expiration handler (cleanup) started.
    case expirationHandlerEntered = "ExpirationHandlerEntered"
    /// Its expiration handler returned.
    case expirationHandlerExited = "ExpirationHandlerExited"
}

/// How a task's signpost interval ended.
public enum BackgroundTaskSignpostOutcome: String, Sendable, CaseIterable {
    /// Its owner ended it.
    case ended
    /// Time ran out and its expiration handler returned.
    case expired
    /// The deinit safety net ended it: a leak.
    case endedBySafetyNet = "ended by safety net"
    /// The system refused it after the interval began.
    case refused
}
