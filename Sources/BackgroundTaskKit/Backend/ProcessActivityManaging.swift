import Foundation

/// macOS `ProcessInfo`'s activity API, copied to the letter so ``ProcessActivityBackend`` is tested anywhere.
///
/// `ProcessInfo` conforms with an empty extension (in `AppleConformances.swift`), its `ActivityOptions` satisfying
/// ``ActivityOptions``; tests conform an identical stand-in. No `Sendable` requirement, as not every SDK declares
/// `ProcessInfo` `Sendable`; both methods must be safe from any thread, concurrently, as `ProcessInfo`'s are.
public protocol ProcessActivityManaging: AnyObject {
    /// The options that describe an activity (`ProcessInfo.ActivityOptions`).
    associatedtype ActivityOptions
    /// Begins an activity that keeps the process from App Nap and sudden or automatic termination, as the options say.
    /// - Parameters:
    ///   - options: What the activity prevents.
    ///   - reason: A description of the work, for debugging.
    /// - Returns: A token to pass to ``endActivity(_:)``.
    func beginActivity(options: ActivityOptions, reason: String) -> any NSObjectProtocol
    /// Ends an activity.
    /// - Parameter activity: The token ``beginActivity(options:reason:)`` returned.
    func endActivity(_ activity: any NSObjectProtocol)
}
