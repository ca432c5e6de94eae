import Foundation

/// The life-cycle part of `UIApplication`, copied from UIKit so that ``ApplicationBackend`` can report the app's state
/// (``ApplicationStateReporting``) and is tested on every platform.
///
/// `UIApplication` conforms with an empty extension (`AppleConformances.swift`): `applicationState` is main-actor
/// isolated, as required; the notification names are class constants. Tests conform an identical `@MainActor` stand-in.
public protocol ApplicationStateMirroring: AnyObject, Sendable {
    /// The state type (`UIApplication.State`: `active` 0, `inactive` 1, `background` 2).
    associatedtype State: RawRepresentable where State.RawValue == Int
    /// The app's state; main-actor isolated in UIKit.
    @MainActor var applicationState: State { get }
    /// Posted on the main thread when the app enters the background.
    @MainActor static var didEnterBackgroundNotification: Notification.Name { get }
    /// Posted on the main thread shortly before the app leaves the background for the foreground.
    @MainActor static var willEnterForegroundNotification: Notification.Name { get }
}

extension ApplicationStateMirroring {
    /// `UIApplication.State.background.rawValue`.
    static var backgroundRawValue: Int { 2 }
}
