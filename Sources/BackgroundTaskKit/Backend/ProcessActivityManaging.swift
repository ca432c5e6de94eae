import Foundation

/// The activity API of `ProcessInfo` on macOS, copied to the letter so that ``ProcessActivityBackend``
/// compiles and is tested on every platform.
///
/// `ProcessInfo` conforms with an empty extension (in `AppleConformances.swift`); its nested
/// `ProcessInfo.ActivityOptions` satisfies ``ActivityOptions``. Tests conform a stand-in with the
/// identical declarations.
///
/// The protocol does not require `Sendable`, because not every SDK declares `ProcessInfo`
/// `Sendable`; the backend still calls a conformer from any thread.
///
/// ```swift
/// let backend = ProcessActivityBackend(ProcessInfo.processInfo, options: .userInitiated)
/// ```
///
/// ## Conformance requirements
///
/// Both methods must be safe to call from any thread, concurrently, as `ProcessInfo`'s are.
public protocol ProcessActivityManaging: AnyObject {
    /// The options that describe an activity (`ProcessInfo.ActivityOptions`).
    associatedtype ActivityOptions

    /// Begins an activity that keeps the process from App Nap and from sudden or automatic
    /// termination, as the options say.
    ///
    /// - Parameters:
    ///   - options: What the activity prevents.
    ///   - reason: A description of the work, for debugging.
    /// - Returns: A token to pass to ``endActivity(_:)``.
    func beginActivity(options: ActivityOptions, reason: String) -> any NSObjectProtocol

    /// Ends an activity.
    ///
    /// - Parameter activity: The token ``beginActivity(options:reason:)`` returned.
    func endActivity(_ activity: any NSObjectProtocol)
}
