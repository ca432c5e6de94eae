import Foundation
import Testing

@testable import BackgroundTaskScheduling

/// `UIApplication`'s launch members, as the SDK declares them.
@MainActor
final class StandInApplication: ApplicationLaunchMirroring {
    enum State: Int {
        case active, inactive, background
    }
    var applicationState: State
    static let didFinishLaunchingNotification = Notification.Name("StandInApplicationDidFinishLaunching")

    init(_ state: State) {
        applicationState = state
    }
}

/// Whether the app has finished launching, as `SafeTaskScheduler.shared` learns it from UIKit. Serialized: the tests
/// post one process-wide notification.
@Suite(.serialized)
@MainActor
struct LaunchMonitorTests {
    @Test func anActiveAppHasFinishedLaunching() {
        let application = StandInApplication(.active)
        let monitor = LaunchMonitor(StandInApplication.self, application: { application })
        #expect(monitor.hasFinishedLaunching == true)
    }

    @Test(arguments: [StandInApplication.State.inactive, .background])
    func anAppStillLaunchingHasFinishedOnceUIKitSaysSo(state: StandInApplication.State) {
        let application = StandInApplication(state)
        let monitor = LaunchMonitor(StandInApplication.self, application: { application })
        #expect(monitor.hasFinishedLaunching == false)
        NotificationCenter.default.post(name: StandInApplication.didFinishLaunchingNotification, object: nil)
        #expect(monitor.hasFinishedLaunching == true)
    }

    @Test func beforeTheApplicationExistsTheAppIsLaunching() {
        let monitor = LaunchMonitor(StandInApplication.self, application: { nil })
        #expect(monitor.hasFinishedLaunching == false)
    }

    @Test func startedOffTheMainActorTheLaunchIsUnknownUntilUIKitSaysItFinished() async {
        let monitor = await Task.detached {
            LaunchMonitor(StandInApplication.self, application: { StandInApplication(.active) })
        }.value
        #expect(monitor.hasFinishedLaunching == nil)
        await Task.yield()  // the observer is added on the main queue
        try? await Task.sleep(nanoseconds: 10_000_000)
        NotificationCenter.default.post(name: StandInApplication.didFinishLaunchingNotification, object: nil)
        #expect(monitor.hasFinishedLaunching == true)
    }
}
