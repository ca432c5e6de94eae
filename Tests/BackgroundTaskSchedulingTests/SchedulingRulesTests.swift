import BackgroundTaskKitTesting
import BackgroundTaskScheduling
import Foundation
import TestSupport
import Testing

/// What `BGTaskScheduler` answers with an exception or a refusal, `SafeTaskScheduler` answers with a typed error; the
/// simulator applies the framework's rules to raw calls.
@MainActor
struct SchedulingRulesTests {
    nonisolated static let refresh = "com.example.feed.refresh"

    private func error(_ body: () throws -> Void) -> TaskSchedulingError? {
        do {
            try body()
            return nil
        } catch {
            return error as? TaskSchedulingError
        }
    }

    private func code(_ body: () throws -> Void) -> TaskSchedulingError.Code? {
        error(body)?.code
    }

    // MARK: - Registration

    @Test func registeringAfterLaunchIsATypedErrorNotTheFrameworksException() {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        simulator.finishLaunching()
        #expect(code { try scheduler.register(Self.refresh) {} } == .registeredAfterLaunch)
        #expect(simulator.termination == nil)
        #expect(!simulator.events.contains(.scheduledTaskRegistered(identifier: Self.refresh)))
    }

    @Test func aRawRegistrationAfterLaunchKillsTheAppAsTheFrameworksExceptionWould() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()  // the app is running: launch is over
        try simulator.register(identifier: Self.refresh) { _ in }
        try simulator.expectTermination(.uncaughtException)
        #expect(simulator.termination?.reason == .launchHandlerRegisteredAfterLaunch)
        #expect(TerminationCode.uncaughtException.description == "SIGABRT")
    }

    @Test func registeringTwiceIsATypedErrorAndTheFirstHandlerStays() throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        try scheduler.register(Self.refresh) {}
        #expect(code { try scheduler.register(Self.refresh) {} } == .alreadyRegistered)
        #expect(simulator.termination == nil)
        #expect(scheduler.registeredIdentifiers == [Self.refresh])

        try simulator.register(identifier: Self.refresh) { _ in }  // raw, a second time: the framework kills
        #expect(simulator.termination?.reason == .launchHandlerRegisteredTwice)
    }

    @Test(arguments: ["", " ", "\n\t"])
    func anEmptyIdentifierIsInvalid(identifier: String) {
        let scheduler = SafeTaskScheduler(backend: BackgroundTaskSimulator())
        #expect(code { try scheduler.register(identifier) {} } == .invalidIdentifier)
        #expect(code { try scheduler.submit(.appRefresh(identifier)) } == .invalidIdentifier)
    }

    @Test func anIdentifierMissingFromThePermittedListIsNotPermittedAndWildcardsAdmitTheirPrefix() throws {
        var configuration = SimulatorConfiguration()
        configuration.permittedTaskIdentifiers = [Self.refresh, "com.example.export.*"]
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let scheduler = SafeTaskScheduler(backend: simulator)

        #expect(code { try scheduler.register("com.example.other") {} } == .notPermitted)
        #expect(code { try scheduler.register("com.example.export") {} } == .notPermitted)
        try scheduler.register(Self.refresh) {}
        try scheduler.register("com.example.export.movie") {}
        #expect(code { try scheduler.submit(.appRefresh("com.example.other")) } == .notPermitted)
        let refusal = try #require(error { try scheduler.register("com.example.other") {} })
        #expect(refusal.description.contains("BGTaskSchedulerPermittedIdentifiers"))
        #expect(simulator.termination == nil)
    }

    @Test func theWildcardMatchNeedsASuffix() {
        let environment = TaskSchedulerEnvironment(permittedIdentifiers: ["a.b.*", "c"])
        #expect(environment.permits("a.b.x") == true)
        #expect(environment.permits("a.b.") == false)
        #expect(environment.permits("a.bx") == false)
        #expect(environment.permits("c") == true)
        #expect(environment.permits("c.d") == false)
        #expect(TaskSchedulerEnvironment().permits("anything") == nil)
    }

    // MARK: - Submission

    @Test func aRequestWithoutItsBackgroundModeIsNotPermitted() throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundModes = ["fetch"]
        let scheduler = SafeTaskScheduler(backend: BackgroundTaskSimulator(configuration: configuration))
        try scheduler.register(Self.refresh) {}
        try scheduler.register("com.example.cleanup") {}
        try scheduler.submit(.appRefresh(Self.refresh))
        #expect(code { try scheduler.submit(.processing("com.example.cleanup")) } == .notPermitted)
    }

    @Test func aRequestForAnIdentifierWithNoLaunchHandlerIsATypedErrorNotAKilledLaunch() throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        let refused = error { try scheduler.submit(.appRefresh(Self.refresh)) }
        #expect(refused?.code == .notRegistered)
        #expect(refused?.description.contains("no launch handler registered") == true)
        #expect(simulator.pendingTaskRequests.isEmpty)
        // Registered through another scheduler: this one cannot know, and says so rather than risk the launch.
        let other = SafeTaskScheduler(backend: simulator)
        try other.register(Self.refresh) {}
        #expect(code { try scheduler.submit(.appRefresh(Self.refresh)) } == .notRegistered)
        try other.submit(.appRefresh(Self.refresh))
        simulator.finishLaunching()
        simulator.runScheduledTask(Self.refresh)
        #expect(simulator.termination == nil)
        #expect(simulator.events.contains(.scheduledTaskLaunched(identifier: Self.refresh)))
    }

    @Test func oneRefreshAndTenProcessingRequestsMayBePendingAndTheSameIdentifierReplaces() throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        for identifier in [Self.refresh, "com.example.second"] + (0...10).map({ "com.example.p\($0)" }) {
            try scheduler.register(identifier) {}
        }
        try scheduler.submit(.appRefresh(Self.refresh))
        try scheduler.submit(.appRefresh(Self.refresh, earliestBeginDate: Date(timeIntervalSince1970: 0)))
        #expect(code { try scheduler.submit(.appRefresh("com.example.second")) } == .tooManyPendingTaskRequests)
        for index in 0..<10 { try scheduler.submit(.processing("com.example.p\(index)")) }
        #expect(code { try scheduler.submit(.processing("com.example.p10")) } == .tooManyPendingTaskRequests)
        #expect(simulator.pendingTaskRequests.count == 11)
        #expect(simulator.pendingTaskRequests.first?.earliestBeginDate == Date(timeIntervalSince1970: 0))

        scheduler.cancel("com.example.p3")
        try scheduler.submit(.processing("com.example.p10"))
        scheduler.cancelAll()
        #expect(simulator.pendingTaskRequests.isEmpty)
    }

    @Test func withoutASchedulerEveryCallSaysUnavailable() {
        let scheduler = SafeTaskScheduler(backend: UnavailableTaskScheduler())
        #expect(code { try scheduler.register(Self.refresh) {} } == .unavailable)
        #expect(code { try scheduler.submit(.appRefresh(Self.refresh)) } == .unavailable)
        #expect(scheduler.registeredIdentifiers.isEmpty, "a refused registration may be tried again")
        #if !canImport(BackgroundTasks)
            let refresh = Self.refresh
            #expect(code { try SafeTaskScheduler.shared.submit(.appRefresh(refresh)) } == .unavailable)
        #endif
    }

    // MARK: - Launches

    @Test func runningATaskWithNoPendingRequestIsAMisuse() {
        let simulator = BackgroundTaskSimulator()
        simulator.runScheduledTask(Self.refresh)
        #expect(simulator.events == [.misuse(.noPendingTaskRequest(identifier: Self.refresh))])
    }

    @Test func aLaunchForAnIdentifierWithNoHandlerIsTheFrameworksException() throws {
        let simulator = BackgroundTaskSimulator()
        try simulator.submit(.appRefresh(Self.refresh))
        simulator.runScheduledTask(Self.refresh)
        try simulator.expectTermination(.uncaughtException)
        #expect(simulator.termination?.reason == .noLaunchHandlerRegistered)
    }

    @Test func aProcessingTaskIsExpiredWhenThePersonStartsUsingTheDeviceARefreshIsNot() async throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        let work: @Sendable () async throws -> Void = {
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
        try scheduler.register("com.example.cleanup", work: work)
        try scheduler.register(Self.refresh, work: work)
        simulator.finishLaunching()
        try scheduler.submit(.processing("com.example.cleanup"))
        try scheduler.submit(.appRefresh(Self.refresh))
        simulator.runScheduledTask("com.example.cleanup")
        simulator.runScheduledTask(Self.refresh)
        simulator.userStartsUsingDevice()

        #expect(simulator.runningScheduledTasks == [Self.refresh])
        #expect(simulator.events.contains(.scheduledTaskCompleted(identifier: "com.example.cleanup", success: false)))
        simulator.advance(by: 30)
        #expect(simulator.runningScheduledTasks.isEmpty)
        #expect(simulator.termination == nil)
    }
}
