import Foundation

/// The default backend where one build of the package serves an app and its app extensions: the application's
/// assertions in an app, expiring activities in an extension.
///
/// Xcode builds a package for the app and for each extension linking it, and an extension cannot name
/// `UIApplication.shared`; this backend never does. In an app the application is found at run time on the main actor;
/// in an extension tasks go to `ProcessInfo.performExpiringActivity(withReason:using:)`. On iOS, tvOS, visionOS and Mac
/// Catalyst, ``BackgroundTaskBackend/platformDefault`` is one of these. Written over the mirrors, so tested everywhere:
/// ```swift
/// let backend = ApplicationOrExtensionBackend(
///     isAppExtension: Bundle.main.bundleURL.pathExtension == "appex",
///     application: ApplicationBackend(resolving: { MyApplication.current }),
///     activities: ExpiringActivityBackend(ProcessInfo.processInfo)
/// )
/// ```
public struct ApplicationOrExtensionBackend<
    Application: ApplicationBackgroundTasking,
    Activities: ExpiringActivityPerforming
>: BackgroundTaskBackend {
    /// Whether this process is an app extension: tasks go to the expiring activities.
    public let isAppExtension: Bool
    private let application: ApplicationBackend<Application>
    private let activities: ExpiringActivityBackend<Activities>

    /// Creates a backend that uses `activities` in an app extension and `application` otherwise.
    /// - Parameters:
    ///   - isAppExtension: Whether this process is an app extension; see ``isRunningInAppExtension(bundleURL:)``.
    ///   - application: The backend of an app; never used in an extension.
    ///   - activities: The backend of an app extension; never used in an app.
    public init(
        isAppExtension: Bool,
        application: ApplicationBackend<Application>,
        activities: ExpiringActivityBackend<Activities>
    ) {
        self.isAppExtension = isAppExtension
        self.application = application
        self.activities = activities
    }

    /// Whether a process whose main bundle is at `bundleURL` is an app extension (path extension `appex`).
    /// - Parameter bundleURL: The main bundle's URL (`Bundle.main.bundleURL`).
    /// - Returns: `true` for an app extension.
    public static func isRunningInAppExtension(bundleURL: URL) -> Bool {
        bundleURL.pathExtension.lowercased() == "appex"
    }

    /// Begins an assertion through the application, or an expiring activity in an extension.
    /// - Parameters:
    ///   - name: The task's name.
    ///   - expirationHandler: Called on the main actor when time runs out.
    /// - Returns: The identifier, or `nil` when not granted.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        isAppExtension
            ? activities.beginBackgroundTask(named: name, expirationHandler: expirationHandler)
            : application.beginBackgroundTask(named: name, expirationHandler: expirationHandler)
    }

    /// Ends an assertion this backend began.
    /// - Parameter identifier: An identifier returned by ``beginBackgroundTask(named:expirationHandler:)``.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        if isAppExtension {
            activities.endBackgroundTask(identifier)
        } else {
            application.endBackgroundTask(identifier)
        }
    }

    /// The application's remaining background time in an app; `nil` in an extension (expiring activities do not say).
    public var backgroundTimeRemaining: TimeInterval? {
        isAppExtension ? activities.backgroundTimeRemaining : application.backgroundTimeRemaining
    }

    /// The application's state reports in an app; `nil` in an extension.
    public var applicationStateReporting: (any ApplicationStateReporting)? {
        isAppExtension ? activities.applicationStateReporting : application.applicationStateReporting
    }
}
