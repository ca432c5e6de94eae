import BackgroundTaskKit
import Foundation
import Testing

/// `ApplicationBackend` reports the app's state from the application's `applicationState` and its
/// notifications, as `UIApplication` gives them.
@MainActor
struct ApplicationStateTests {
    @Test func theBackendReportsTheCurrentStateThenEveryChange() throws {
        let application = StandInApplication()
        let backend = ApplicationBackend(application)
        let reports = Locked<[Bool]>([])
        let reporting = try #require(backend.applicationStateReporting)
        let observation = reporting.observeBackgroundState { inBackground in
            reports.withLock { $0.append(inBackground) }
        }
        application.move(to: .inactive)  // still the foreground: no report
        application.move(to: .background)
        application.move(to: .active)
        #expect(reports.value == [false, true, false])
        observation.cancel()
        application.move(to: .background)
        #expect(reports.value == [false, true, false])
    }

    @Test func aStartInTheBackgroundIsReportedFirst() throws {
        let application = StandInApplication()
        application.move(to: .background)
        let reports = Locked<[Bool]>([])
        let observation = try #require(ApplicationBackend(application).applicationStateReporting)
            .observeBackgroundState { inBackground in reports.withLock { $0.append(inBackground) } }
        #expect(reports.value == [true])
        observation.cancel()
    }

    @Test func anApplicationWithoutStateMembersReportsNothing() {
        #expect(ApplicationBackend(StandInUnannotatedHandlerApplication()).applicationStateReporting == nil)
    }

    @Test func aLazyManagerFollowsTheApplicationsNotifications() throws {
        let application = StandInApplication()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.holdsAssertionOnlyInBackground = true
        let manager = BackgroundTaskManager(backend: ApplicationBackend(application), configuration: configuration)
        let task = try manager.beginTask("Upload")
        #expect(application.begun.isEmpty)
        application.move(to: .background)
        #expect(application.begun.map(\.name) == ["BackgroundTaskManager"])
        application.move(to: .active)
        #expect(application.ended == application.begun.map(\.identifier))
        task.end()
    }
}
