import BackgroundTaskKit
import Foundation

/// Whether the app has finished launching, as UIKit tells: launch handlers must be registered before.
///
/// Started on the main actor, it reads the app's state: `active` means launched; otherwise (or with no application
/// yet) the launch is on until `didFinishLaunchingNotification`. Started off the main actor, it knows nothing until
/// that notification, which a late start never sees: then ``hasFinishedLaunching`` stays `nil` (unknown).
final class LaunchMonitor: Sendable {
    private struct Launch {
        var finished: Bool?
    }
    private let launch = Locked(Launch())

    init<Application: ApplicationLaunchMirroring>(
        _: Application.Type,
        application: @escaping @MainActor @Sendable () -> Application?
    ) {
        let start: @MainActor @Sendable () -> Void = { [launch] in
            _ = NotificationCenter.default.addObserver(
                forName: Application.didFinishLaunchingNotification, object: nil, queue: nil
            ) { _ in launch.withLock { $0.finished = true } }  // kept for the life of the process
        }
        guard MainActorContext.isCurrent else {
            DispatchQueue.main.async { MainActor.assumeIsolated { start() } }
            return
        }
        MainActor.assumeIsolated {
            let active = application().map { $0.applicationState.rawValue == 0 } ?? false
            launch.withLock { $0.finished = active }
            if !active { start() }
        }
    }

    /// `true` once launched, `false` while launching, `nil` when unknown.
    var hasFinishedLaunching: Bool? {
        launch.withLock { $0.finished }
    }
}

extension TaskSchedulerEnvironment {
    /// The app's Info.plist values, and whether it has finished launching as `launch` tells.
    static func infoPlist(launch: LaunchMonitor) -> Self {
        var environment = infoPlist()
        environment.hasFinishedLaunching = launch.hasFinishedLaunching
        return environment
    }
}
