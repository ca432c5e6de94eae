import Foundation

/// A request that the system launch the app in the background later, to run the task registered for its identifier:
/// what `BGAppRefreshTaskRequest` and `BGProcessingTaskRequest` say, as a value.
///
/// ```swift
/// try scheduler.submit(.appRefresh("com.example.feed.refresh", earliestBeginDate: .now + 15 * 60))
/// try scheduler.submit(.processing("com.example.db.cleanup", requiresExternalPower: true))
/// ```
public struct ScheduledTaskRequest: Sendable, Equatable, CustomStringConvertible {
    /// Which kind of background launch is asked for.
    public enum Kind: Sendable, Equatable {
        /// A short refresh (`BGAppRefreshTask`, about 30 s): needs the `fetch` background mode. At most one pending.
        case appRefresh
        /// A deferrable, longer task (`BGProcessingTask`, minutes), run when the device is idle and ended when the
        /// person starts using it: needs the `processing` background mode. At most ten pending.
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)
    }

    /// The task identifier, as listed in the app's `BGTaskSchedulerPermittedIdentifiers` and registered at launch.
    public var identifier: String
    /// The kind of launch asked for.
    public var kind: Kind
    /// Not before this date; `nil`: as soon as the system sees fit. The system only promises "not sooner".
    public var earliestBeginDate: Date?

    /// Creates a request.
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - kind: Refresh or processing.
    ///   - earliestBeginDate: Not before this date; `nil` for no delay.
    public init(identifier: String, kind: Kind, earliestBeginDate: Date? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
    }

    /// A refresh request (`BGAppRefreshTaskRequest`).
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - earliestBeginDate: Not before this date; `nil` for no delay.
    /// - Returns: The request.
    public static func appRefresh(_ identifier: String, earliestBeginDate: Date? = nil) -> Self {
        Self(identifier: identifier, kind: .appRefresh, earliestBeginDate: earliestBeginDate)
    }

    /// A processing request (`BGProcessingTaskRequest`).
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - earliestBeginDate: Not before this date; `nil` for no delay.
    ///   - requiresNetworkConnectivity: Launch only with a network connection. Default `false`.
    ///   - requiresExternalPower: Launch only on external power (and without the CPU monitor). Default `false`.
    /// - Returns: The request.
    public static func processing(
        _ identifier: String,
        earliestBeginDate: Date? = nil,
        requiresNetworkConnectivity: Bool = false,
        requiresExternalPower: Bool = false
    ) -> Self {
        Self(
            identifier: identifier,
            kind: .processing(
                requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower),
            earliestBeginDate: earliestBeginDate)
    }

    /// `appRefresh "com.example.refresh"`, or `processing "com.example.cleanup"`.
    public var description: String {
        switch kind {
        case .appRefresh: "appRefresh \"\(identifier)\""
        case .processing: "processing \"\(identifier)\""
        }
    }

    /// The `UIBackgroundModes` value this kind needs in the Info.plist: `fetch` or `processing`.
    public var requiredBackgroundMode: String {
        if case .appRefresh = kind { "fetch" } else { "processing" }
    }
}
