import BackgroundTaskKit
import Foundation

/// Shaped like `UIApplication`'s life-cycle members: `applicationState` isolated to the main actor
/// and two notification names, so the empty conformance below proves that
/// `extension UIApplication: ApplicationStateMirroring {}` compiles.
extension StandInApplication {
    /// Shaped like `UIApplication.State`.
    enum State: Int {
        case active, inactive, background
    }

    static let didEnterBackgroundNotification = Notification.Name("StandInApplication.didEnterBackground")
    static let willEnterForegroundNotification = Notification.Name("StandInApplication.willEnterForeground")

    var applicationState: State {
        currentState
    }

    /// Moves the app to `state` and posts UIKit's notification for it, on the main actor.
    func move(to state: State) {
        let wasInBackground = currentState == .background
        currentState = state
        if state == .background, !wasInBackground {
            NotificationCenter.default.post(name: Self.didEnterBackgroundNotification, object: self)
        } else if state != .background, wasInBackground {
            NotificationCenter.default.post(name: Self.willEnterForegroundNotification, object: self)
        }
    }
}

extension StandInApplication: ApplicationStateMirroring {}
