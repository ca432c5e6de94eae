import Foundation

/// A person-started job that the system may let run on in the background, with its progress shown in a Live
/// Activity: what `BGContinuedProcessingTaskRequest` (iOS 26) says, as a value.
///
/// Submit it from the foreground, right after the person's action (the tap on "Export"): the system refuses it once
/// the app is in the background.
/// ```swift
/// let request = ContinuedProcessingRequest(
///     identifier: ContinuedProcessingRequest.uniqueIdentifier(prefix: "com.example.app.export"),
///     title: "Exporting “Holiday”", subtitle: "Preparing")
/// ```
public struct ContinuedProcessingRequest: Sendable, Equatable, CustomStringConvertible {
    /// What the system does when it cannot run the job at once.
    public enum Strategy: Sendable, Equatable {
        /// Queue it (the default); queued jobs are cancelled when the person removes the app from the switcher.
        case queue
        /// Refuse it (`BGTaskScheduler.Error.immediateRunIneligible`).
        case fail
    }

    /// The concrete identifier: a prefix listed with a `.*` wildcard in `BGTaskSchedulerPermittedIdentifiers`
    /// (`<bundle id>.<context>.*`), then a suffix of your own.
    public var identifier: String
    /// The title the system shows (localized).
    public var title: String
    /// The subtitle the system shows (localized).
    public var subtitle: String
    /// What to do when the job cannot run at once. Default ``Strategy/queue``.
    public var strategy: Strategy
    /// Whether the job needs the GPU in the background: only where the device supports it
    /// (`BGTaskScheduler.supportedResources`) and with the background GPU entitlement. Default `false`.
    public var requiresGPU: Bool

    /// Creates a request.
    /// - Parameters:
    ///   - identifier: The concrete identifier (see ``uniqueIdentifier(prefix:)``).
    ///   - title: The title the system shows.
    ///   - subtitle: The subtitle the system shows.
    ///   - strategy: What to do when the job cannot run at once.
    ///   - requiresGPU: Whether the job needs the GPU in the background.
    public init(
        identifier: String, title: String, subtitle: String, strategy: Strategy = .queue, requiresGPU: Bool = false
    ) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiresGPU = requiresGPU
    }

    /// `prefix` followed by a dot and a fresh UUID: a concrete identifier under the Info.plist entry `prefix.*`.
    /// - Parameter prefix: The permitted entry without its `.*`, such as `com.example.app.export`.
    /// - Returns: The identifier.
    public static func uniqueIdentifier(prefix: String) -> String {
        "\(prefix).\(UUID().uuidString)"
    }

    /// `continued processing "com.example.app.export.…" ("Exporting")`.
    public var description: String {
        "continued processing \"\(identifier)\" (\"\(title)\")"
    }
}
