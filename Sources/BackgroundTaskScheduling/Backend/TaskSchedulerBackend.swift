import BackgroundTaskKit
import Foundation

/// The seam between ``SafeTaskScheduler`` and the system's `BGTaskScheduler`: register a launch handler, submit,
/// cancel, and what the app's Info.plist and launch say.
///
/// Apps use ``SafeTaskScheduler/shared`` (over `BGTaskScheduler.shared` through ``SystemTaskScheduler``); tests pass
/// the simulator (`BackgroundTaskKitTesting`), which models the scheduler's rules.
///
/// ## Implementation requirements
///
/// - Every requirement may be called from any thread.
/// - ``register(identifier:launchHandler:)`` is the framework's call, made at most once per identifier by the face,
///   after it checked what ``environment`` tells; it throws when the system refuses the identifier.
/// - The launch handler is called on a queue of the backend's, once per launch of the task, with a fresh
///   ``LaunchedTask``.
/// - ``submit(_:)`` throws ``TaskSchedulingError`` for the system's refusals.
public protocol TaskSchedulerBackend: Sendable {
    /// Registers the launch handler of `identifier` (`register(forTaskWithIdentifier:using:launchHandler:)`).
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - launchHandler: Called each time the system launches the task.
    /// - Throws: ``TaskSchedulingError``: ``TaskSchedulingError/Code/notPermitted`` when the system refused the
    ///   identifier, ``TaskSchedulingError/Code/unavailable`` where there is no scheduler.
    func register(
        identifier: String,
        launchHandler: @escaping @Sendable (any LaunchedTask) -> Void
    ) throws(TaskSchedulingError)

    /// Submits a request (`submit(_:)`); one for the same identifier replaces it.
    /// - Parameter request: The request.
    /// - Throws: ``TaskSchedulingError`` when the system refuses it.
    func submit(_ request: ScheduledTaskRequest) throws(TaskSchedulingError)

    /// Cancels the pending request of `identifier`, if any.
    /// - Parameter identifier: The task identifier.
    func cancel(identifier: String)

    /// Cancels every pending request.
    func cancelAll()

    /// What the app's Info.plist and launch say, as far as the backend knows.
    var environment: TaskSchedulerEnvironment { get }

    /// What this backend tells the package's engine about the tasks it launches (the simulator's virtual clock);
    /// keep the default, `nil`.
    var launchedTaskHooks: BackgroundTaskBackendHooks? { get }

    /// Continued processing (iOS 26), if this backend offers it; the default is `nil`.
    var continuedProcessing: (any ContinuedProcessingScheduling)? { get }
}

extension TaskSchedulerBackend {
    /// `nil`: the engine uses the system's clock for launched tasks.
    public var launchedTaskHooks: BackgroundTaskBackendHooks? { nil }
}

/// A task the system launched the app for (`BGTask`), as the seam sees it.
///
/// Every member may be called from any thread. ``SafeTaskScheduler`` calls ``setTaskCompleted(success:)`` exactly once.
public protocol LaunchedTask: AnyObject, Sendable {
    /// The task identifier it was registered and submitted with.
    var identifier: String { get }
    /// Sets the handler the system calls shortly before the task's time runs out, on a queue of its own; `nil`
    /// clears it. Without one, the system marks the task complete and unsuccessful when its time runs out.
    /// - Parameter handler: The handler, or `nil`.
    func setExpirationHandler(_ handler: (@Sendable () -> Void)?)
    /// Tells the system the task is done (`setTaskCompleted(success:)`); it may then suspend the app.
    /// - Parameter success: Whether the work succeeded.
    func setTaskCompleted(success: Bool)
}

/// What the app's Info.plist and launch say about background tasks, as far as a ``TaskSchedulerBackend`` knows:
/// ``SafeTaskScheduler`` checks registrations and submissions against it and throws a typed error instead of letting
/// the framework raise an exception.
public struct TaskSchedulerEnvironment: Sendable, Equatable {
    /// The Info.plist's `BGTaskSchedulerPermittedIdentifiers`; `nil`: unknown (nothing is checked against it). An
    /// entry ending in `.*` admits every identifier with that prefix (continued processing).
    public var permittedIdentifiers: [String]?
    /// The Info.plist's `UIBackgroundModes`; `nil`: unknown.
    public var backgroundModes: [String]?
    /// Whether the app has finished launching (launch handlers must be registered before); `nil`: unknown.
    public var hasFinishedLaunching: Bool?

    /// Creates an environment; `nil` values are unknown.
    /// - Parameters:
    ///   - permittedIdentifiers: The Info.plist's `BGTaskSchedulerPermittedIdentifiers`.
    ///   - backgroundModes: The Info.plist's `UIBackgroundModes`.
    ///   - hasFinishedLaunching: Whether the app has finished launching.
    public init(
        permittedIdentifiers: [String]? = nil, backgroundModes: [String]? = nil, hasFinishedLaunching: Bool? = nil
    ) {
        self.permittedIdentifiers = permittedIdentifiers
        self.backgroundModes = backgroundModes
        self.hasFinishedLaunching = hasFinishedLaunching
    }

    /// The Info.plist values of `bundle` (by default the app's), with the launch unknown.
    /// - Parameter bundle: The bundle whose Info.plist to read.
    /// - Returns: What the Info.plist says.
    public static func infoPlist(of bundle: Bundle = .main) -> Self {
        Self(
            permittedIdentifiers: bundle.object(forInfoDictionaryKey: "BGTaskSchedulerPermittedIdentifiers")
                as? [String],
            backgroundModes: bundle.object(forInfoDictionaryKey: "UIBackgroundModes") as? [String])
    }

    /// Whether `identifier` is permitted: `nil` when the list is unknown.
    /// - Parameter identifier: A task identifier.
    /// - Returns: Whether the list has it, or a wildcard entry (`prefix.*`) matching it; `nil` if unknown.
    public func permits(_ identifier: String) -> Bool? {
        permittedIdentifiers.map { list in
            list.contains { entry in
                guard entry.hasSuffix(".*") else { return entry == identifier }
                let prefix = entry.dropLast()  // keeps the dot
                return identifier.count > prefix.count && identifier.hasPrefix(prefix)
            }
        }
    }
}
