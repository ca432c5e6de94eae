import Foundation

/// The shape of `UIBackgroundTaskIdentifier`, copied from UIKit so that code generic over it compiles everywhere.
///
/// `UIBackgroundTaskIdentifier` conforms with an empty extension (in `AppleConformances.swift`); tests use a stand-in.
/// ``ApplicationBackend`` converts it to and from ``BackgroundTaskIdentifier`` through ``rawValue``, one to one.
/// ```swift
/// struct MyIdentifier: BackgroundTaskIdentifierMirror {
///     var rawValue: Int
///     static let invalid = MyIdentifier(rawValue: 0)
/// }
/// ```
public protocol BackgroundTaskIdentifierMirror: Hashable, Sendable {
    /// Wraps a raw identifier.
    /// - Parameter rawValue: The raw value of the identifier.
    init(rawValue: Int)
    /// The raw identifier; the system prints it in its console messages.
    var rawValue: Int { get }
    /// The value returned when an assertion was not granted (`rawValue` 0 in UIKit).
    static var invalid: Self { get }
}

/// `UIApplication`'s background-task part, copied to the letter so ``ApplicationBackend`` is tested anywhere.
///
/// `UIApplication` conforms with an empty extension (in `AppleConformances.swift`): it is a `@MainActor` class whose
/// three members below are `nonisolated` (Xcode 16 SDKs and later), so conforming to this non-isolated protocol needs
/// no code. Tests conform a `@MainActor` stand-in with the identical declarations, so a requirement UIKit could not
/// satisfy fails to compile here too. Every requirement is called from any thread, concurrently, as UIKit allows. You
/// rarely use it directly: take `.uiApplication` on iOS, or wrap your conformer in an ``ApplicationBackend``.
public protocol ApplicationBackgroundTasking: AnyObject, Sendable {
    /// The identifier type the application returns (`UIBackgroundTaskIdentifier` in UIKit).
    associatedtype TaskIdentifier: BackgroundTaskIdentifierMirror
    /// The background time left, in seconds; `Double.greatestFiniteMagnitude` in the foreground. An estimate, valid
    /// only in the background while an assertion is held.
    var backgroundTimeRemaining: TimeInterval { get }

    /// Raises an assertion that keeps the app running in the background.
    /// - Parameters:
    ///   - taskName: The name the system prints in its warnings about the task.
    ///   - handler: Called on the main thread shortly before background time runs out.
    /// - Returns: The assertion's identifier, or ``BackgroundTaskIdentifierMirror/invalid`` when it was not granted.
    ///
    /// > Important: The handler must end the assertion synchronously, before it returns; the system terminates an app
    /// > that still holds an assertion after its handlers have run.
    func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> TaskIdentifier

    /// Ends an assertion; safe on any thread.
    /// - Parameter identifier: An identifier returned by ``beginBackgroundTask(withName:expirationHandler:)``.
    func endBackgroundTask(_ identifier: TaskIdentifier)
}
