import Foundation

/// The launch part of `UIApplication`, copied from UIKit, so that ``SafeTaskScheduler`` can tell a launch handler
/// registered after launch (which `BGTaskScheduler` answers with an exception) and is tested on every platform.
///
/// `UIApplication` conforms with an empty extension (`AppleConformances.swift`); tests conform a stand-in.
public protocol ApplicationLaunchMirroring: AnyObject {
    /// The state type (`UIApplication.State`: `active` 0, `inactive` 1, `background` 2).
    associatedtype State: RawRepresentable where State.RawValue == Int
    /// The app's state; main-actor isolated in UIKit.
    @MainActor var applicationState: State { get }
    /// Posted once the app has finished launching (after `application(_:didFinishLaunchingWithOptions:)` returned).
    @MainActor static var didFinishLaunchingNotification: Notification.Name { get }
}
