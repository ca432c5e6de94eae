import BackgroundTaskKit
import Foundation

/// A message iOS prints to the console about background tasks, reproduced with Apple's wording.
///
/// Compare the structured cases in tests; read ``text`` to see exactly what a device would print.
public enum ConsoleMessage: Equatable, Sendable, CustomStringConvertible {
    /// iOS 13.4 and later: a task has existed for longer than the warning age (30 s), counted from
    /// its creation, in the foreground or the background.
    case taskCreatedTooLongAgo(BackgroundTaskIdentifier, name: String?, warningAge: TimeInterval)
    /// `endBackgroundTask` was called with an identifier that is not outstanding: ended twice,
    /// never granted, or `.invalid`. A log, not a crash.
    case cannotEndTask(BackgroundTaskIdentifier)
    /// Background time ran out and the task was still held after every expiration handler had
    /// returned. Termination follows.
    case taskNotEndedAfterExpirationHandlers(
        BackgroundTaskIdentifier,
        name: String?,
        createdAt: TimeInterval,
        elapsed: TimeInterval
    )

    /// The line a device would print. Unnamed tasks appear as `Called by App`, the way iOS names
    /// them after the calling process.
    public var text: String {
        switch self {
        case .taskCreatedTooLongAgo(let identifier, let name, let age):
            "Background Task \(identifier.rawValue) (\"\(Self.displayName(name))\"), was created over \(formatSeconds(age)) "
                + "seconds ago. In applications running in the background, this creates a risk of termination. "
                + "Remember to call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this."
        case .cannotEndTask(let identifier):
            "Can't end BackgroundTask: no background task exists with identifier \(identifier), "
                + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
        case .taskNotEndedAfterExpirationHandlers(let identifier, let name, let createdAt, let elapsed):
            "Background task still not ended after expiration handlers were called: <UIBackgroundTaskInfo>: "
                + "taskID = \(identifier.rawValue), taskName = \(Self.displayName(name)), "
                + "creationTime = \(formatSeconds(createdAt)) (elapsed = \(formatSeconds(elapsed))). "
                + "This app will likely be terminated by the system. "
                + "Call UIApplication.endBackgroundTask(_:) to avoid this."
        }
    }

    /// How the messages name a task: its name, or `Called by App` when it has none (iOS names an
    /// unnamed task after the calling process).
    public static func displayName(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "Called by App" }
        return name
    }

    /// Same as ``text``.
    public var description: String { text }
}
