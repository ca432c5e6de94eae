@_spi(BackgroundTaskKitInternals) import BackgroundTaskKit

// Apple platforms only: the `os` calls behind `UnifiedLoggingObserver`. Each method is one `os` call
// per privacy choice, because an `OSLogMessage` (and its privacy) can only be written as a literal at
// the call site. Everything the observer decides is tested on Linux; these lines are listed in
// Documentation/AppleOnlyCode.md.

#if canImport(os)
    import os

    /// Writes ``UnifiedLoggingObserver``'s messages to an `os.Logger` and its intervals to an
    /// `OSSignposter` on the same subsystem and category. Messages read
    /// `Background task "<name>" <what happened>; begun at <call site>`.
    public struct OSLogWriter: UnifiedLogWriting, @unchecked Sendable {  // holds a thread-safe Logger and OSSignposter
        /// A task's signpost interval.
        public struct Interval: @unchecked Sendable {  // immutable; its state is only read by endInterval
            let id: OSSignpostID
            let state: OSSignpostIntervalState
        }

        private let logger: Logger
        private let signposter: OSSignposter

        /// Writes to subsystem `subsystem` (your app's bundle identifier, say), category `category`.
        public init(subsystem: String, category: String = "BackgroundTasks") {
            logger = Logger(subsystem: subsystem, category: category)
            signposter = OSSignposter(logger: logger)
        }

        /// Writes one message at `level`, the name with `privacy`.
        public func log(
            _ level: BackgroundTaskLogLevel,
            _ text: String,
            taskName: String?,
            privacy: BackgroundTaskLogPrivacy
        ) {
            let name = taskName ?? "(unnamed)"
            switch privacy {
            case .private:
                logger.log(
                    level: level.osLogType, "Background task \"\(name, privacy: .private)\" \(text, privacy: .public)")
            case .public:
                logger.log(
                    level: level.osLogType, "Background task \"\(name, privacy: .public)\" \(text, privacy: .public)")
            }
        }

        /// Begins a `BackgroundTask` interval with a new signpost ID.
        public func beginInterval(named taskName: String?, privacy: BackgroundTaskLogPrivacy) -> Interval {
            let id = signposter.makeSignpostID()
            let name = taskName ?? "(unnamed)"
            switch privacy {
            case .private:
                return Interval(
                    id: id, state: signposter.beginInterval("BackgroundTask", id: id, "\(name, privacy: .private)"))
            case .public:
                return Interval(
                    id: id, state: signposter.beginInterval("BackgroundTask", id: id, "\(name, privacy: .public)"))
            }
        }

        /// Emits the event in the interval.
        public func emitEvent(_ event: BackgroundTaskSignpostEvent, in interval: Interval) {
            switch event {
            case .expired: signposter.emitEvent("Expired", id: interval.id)
            case .expirationHandlerEntered: signposter.emitEvent("ExpirationHandlerEntered", id: interval.id)
            case .expirationHandlerExited: signposter.emitEvent("ExpirationHandlerExited", id: interval.id)
            }
        }

        /// Ends the interval with the outcome as its message.
        public func endInterval(_ interval: Interval, outcome: BackgroundTaskSignpostOutcome) {
            signposter.endInterval("BackgroundTask", interval.state, "\(outcome.rawValue, privacy: .public)")
        }
    }

    extension BackgroundTaskLogLevel {
        /// The `OSLogType` of this level.
        var osLogType: OSLogType {
            switch self {
            case .debug: .debug
            case .info: .info
            case .notice: .default
            case .error: .error
            case .fault: .fault
            }
        }
    }
#endif
