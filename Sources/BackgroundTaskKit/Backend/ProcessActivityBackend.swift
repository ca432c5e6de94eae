import Foundation

/// A backend over `ProcessInfo.beginActivity(options:reason:)` and `endActivity(_:)`, for macOS apps, where nothing
/// suspends the process but App Nap and automatic termination can get in the way.
///
/// Every begin is granted: the backend begins an activity, keeps its token under an identifier of its own (counting up
/// from 1, shared by every copy), and ends that token exactly once when the identifier is ended. Time never runs out:
/// expiration handlers are never called, and ``backgroundTimeRemaining`` is always `nil`.
/// ```swift
/// let backend = ProcessActivityBackend(ProcessInfo.processInfo, options: .userInitiated)
/// ```
/// > Important: An activity never ended keeps its options in force for the life of the process; end every identifier.
public struct ProcessActivityBackend<Manager: ProcessActivityManaging>: BackgroundTaskBackend {
    /// The manager's reason for a task with no name (`nil` or empty): `"BackgroundTaskKit background task"`.
    public static var defaultReason: String { ActivityReason.fallback }

    private struct State {
        // Read only under the lock, like the rest; never mutated.
        let options: Manager.ActivityOptions
        var nextIdentifier = 1
        var activities: [Int: any NSObjectProtocol] = [:]
    }

    private let manager: UncheckedSendableBox<Manager>
    private let state: Locked<State>

    /// Creates a backend that begins every activity with the same options.
    /// - Parameters:
    ///   - manager: Usually `ProcessInfo.processInfo`; must be safe to call from any thread, as `ProcessInfo` is.
    ///   - options: The options of every activity.
    public init(_ manager: Manager, options: Manager.ActivityOptions) {
        self.manager = UncheckedSendableBox(manager)
        state = Locked(State(options: options))
    }

    /// Begins an activity; always granted.
    /// - Parameters:
    ///   - name: The activity's reason; ``defaultReason`` when `nil` or empty.
    ///   - expirationHandler: Never called: activities do not expire.
    /// - Returns: A fresh identifier; never `nil`.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        let reason = ActivityReason.forTask(named: name)
        let options = state.withLock { $0.options }
        let activity = manager.value.beginActivity(options: options, reason: reason)
        let identifier = state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier &+= 1
            state.activities[identifier] = activity
            return identifier
        }
        return BackgroundTaskIdentifier(rawValue: identifier)
    }

    /// Ends the activity begun under `identifier`; ending one twice, or one not granted here, does nothing.
    /// - Parameter identifier: An identifier returned by ``beginBackgroundTask(named:expirationHandler:)``.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        guard let activity = state.withLock({ $0.activities.removeValue(forKey: identifier.rawValue) }) else {
            return
        }
        manager.value.endActivity(activity)
    }

    /// Always `nil`: activities never expire.
    public var backgroundTimeRemaining: TimeInterval? { nil }
}
