/// Why a scheduled task could not be registered or submitted: the one error type of `BackgroundTaskScheduling`.
///
/// Where `BGTaskScheduler` raises an Objective-C exception that kills the app (a launch handler registered after
/// launch, or twice), ``SafeTaskScheduler`` throws this instead, before calling it.
/// ```swift
/// do {
///     try scheduler.register("com.example.refresh") { try await feed.refresh() }
/// } catch {
///     logger.fault("\(error)")  // says what to fix: the Info.plist, the timing, the identifier
/// }
/// ```
public struct TaskSchedulingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong. New codes may be added: switch with a `default`.
    public enum Code: Sendable, Equatable {
        /// The identifier is empty or only white space.
        case invalidIdentifier
        /// The identifier is not in the app's `BGTaskSchedulerPermittedIdentifiers`, the needed `UIBackgroundModes`
        /// value is missing, or the system refused (`BGTaskScheduler.Error.notPermitted`).
        case notPermitted
        /// A launch handler was registered after the app finished launching; the framework would raise an exception.
        case registeredAfterLaunch
        /// A launch handler is already registered for the identifier; the framework would kill the app.
        case alreadyRegistered
        /// Too many requests of this kind are pending (one refresh, ten processing); cancel some first.
        case tooManyPendingTaskRequests
        /// Background tasks are unavailable here: Background App Refresh is off, the Simulator, an extension that
        /// cannot schedule, or a platform without `BGTaskScheduler` (macOS, watchOS, Linux).
        case unavailable
        /// A continued-processing request with the `.fail` strategy could not run at once.
        case immediateRunIneligible
        /// The system refused for a reason this package does not know; ``TaskSchedulingError/detail`` has its words.
        case other
        /// A request was submitted for an identifier with no launch handler registered in this launch (through this
        /// scheduler): when the system launches the app for it, the framework raises an exception and the app is
        /// killed.
        case notRegistered
    }

    /// What went wrong.
    public var code: Code
    /// The task identifier concerned.
    public var identifier: String
    /// More words: the system's error, or the Info.plist value missing.
    public var detail: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - identifier: The task identifier concerned.
    ///   - detail: More words, if any.
    public init(_ code: Code, identifier: String, detail: String? = nil) {
        self.code = code
        self.identifier = identifier
        self.detail = detail
    }

    /// A sentence saying what happened and what to do.
    public var description: String {
        let subject = "Background task \"\(identifier)\""
        let sentence =
            switch code {
            case .invalidIdentifier: "\(subject): the identifier is empty; use the one listed in the Info.plist."
            case .notPermitted:
                "\(subject) is not permitted: list it in the Info.plist's BGTaskSchedulerPermittedIdentifiers and add "
                    + "the background mode it needs (UIBackgroundModes: fetch or processing)."
            case .registeredAfterLaunch:
                "\(subject) was registered after the app finished launching; register every launch handler in "
                    + "application(_:didFinishLaunchingWithOptions:) or your App's init()."
            case .alreadyRegistered: "\(subject) already has a launch handler; register each identifier once."
            case .tooManyPendingTaskRequests:
                "\(subject): too many requests of this kind are pending (one refresh, ten processing); cancel one "
                    + "first or resubmit the same identifier, which replaces its request."
            case .unavailable:
                "\(subject): background tasks are unavailable (Background App Refresh off, the Simulator, or a "
                    + "platform without BGTaskScheduler)."
            case .immediateRunIneligible: "\(subject) could not start at once; try again or use the .queue strategy."
            case .other: "\(subject) was refused by the system."
            case .notRegistered:
                "\(subject) has no launch handler registered in this launch: a launch for it would kill the app; "
                    + "register it (before the app finishes launching) through the same scheduler, then submit."
            }
        return detail.map { "\(sentence) (\($0))" } ?? sentence
    }
}
