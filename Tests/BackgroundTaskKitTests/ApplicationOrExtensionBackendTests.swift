import BackgroundTaskKit
import Foundation
import Testing

/// The platform default on iOS: the application in an app, expiring activities in an app extension,
/// without naming `UIApplication.shared` (which an extension cannot compile).
struct ApplicationOrExtensionBackendTests {
    private static func makeBackend(isAppExtension: Bool) -> (
        ApplicationOrExtensionBackend<StandInApplication, StandInActivityPerformer>, StandInApplication,
        StandInActivityPerformer
    ) {
        let application = StandInApplication()
        let performer = StandInActivityPerformer()
        let backend = ApplicationOrExtensionBackend(
            isAppExtension: isAppExtension,
            application: ApplicationBackend(application),
            activities: ExpiringActivityBackend(performer)
        )
        return (backend, application, performer)
    }

    @Test func inAnAppTasksGoToTheApplication() throws {
        let (backend, application, performer) = Self.makeBackend(isAppExtension: false)
        let identifier = try #require(backend.beginBackgroundTask(named: "Upload", expirationHandler: nil))
        backend.endBackgroundTask(identifier)
        #expect(application.begun.map(\.name) == ["Upload"])
        #expect(application.ended.count == 1)
        #expect(performer.reasons.isEmpty)
    }

    @Test func inAnExtensionTasksGoToExpiringActivitiesAndNeverTouchTheApplication() throws {
        let (backend, application, performer) = Self.makeBackend(isAppExtension: true)
        let identifier = try #require(backend.beginBackgroundTask(named: "Share upload", expirationHandler: nil))
        backend.endBackgroundTask(identifier)
        #expect(performer.reasons == ["Share upload"])
        #expect(application.begun.isEmpty)
        #expect(backend.backgroundTimeRemaining == nil)
        #expect(backend.applicationStateReporting == nil)
    }

    @Test(arguments: [
        ("/private/var/containers/Bundle/Application/X/My.app/PlugIns/Share.appex", true),
        ("/private/var/containers/Bundle/Application/X/My.app/PlugIns/Widget.APPEX", true),
        ("/private/var/containers/Bundle/Application/X/My.app", false),
        ("/usr/bin", false),
    ])
    func anAppExtensionIsABundleEndingInAppex(path: String, isExtension: Bool) {
        let detected = ApplicationOrExtensionBackend<StandInApplication, StandInActivityPerformer>
            .isRunningInAppExtension(bundleURL: URL(fileURLWithPath: path))
        #expect(detected == isExtension)
    }
}
