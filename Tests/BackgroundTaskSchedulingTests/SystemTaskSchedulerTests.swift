import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation
import TestSupport
import Testing

// MARK: - Stand-ins with BackgroundTasks' declarations, to the letter

/// `BGTask`'s members as the SDK declares them.
private final class StandInTask: ScheduledTaskMirroring, @unchecked Sendable {  // the test uses it on one thread
    let identifier: String
    var expirationHandler: (() -> Void)?
    var completions: [Bool] = []

    init(identifier: String) {
        self.identifier = identifier
    }

    func setTaskCompleted(success: Bool) {
        completions.append(success)
        expirationHandler = nil  // as the system clears it
    }
}

/// `BGTaskRequest`.
private class StandInRequest: TaskRequestMirroring {
    let identifier: String
    var earliestBeginDate: Date?

    init(identifier: String) {
        self.identifier = identifier
    }
}

/// `BGAppRefreshTaskRequest`.
private final class StandInRefreshRequest: StandInRequest {}

/// `BGProcessingTaskRequest`.
private final class StandInProcessingRequest: StandInRequest, ProcessingTaskRequestMirroring {
    var requiresNetworkConnectivity = false
    var requiresExternalPower = false
}

/// `BGTaskScheduler`'s members, with the Swift names of its API notes.
private final class StandInScheduler: TaskSchedulerMirroring, @unchecked Sendable {  // the test uses it on one thread
    var handlers: [String: (StandInTask) -> Void] = [:]
    var submitted: [StandInRequest] = []
    var cancelled: [String] = []
    var refuses = false
    var submitError: NSError?

    func register(
        forTaskWithIdentifier identifier: String,
        using queue: DispatchQueue?,
        launchHandler: @escaping (StandInTask) -> Void
    ) -> Bool {
        guard !refuses else { return false }
        handlers[identifier] = launchHandler
        return true
    }

    func submit(_ taskRequest: StandInRequest) throws {
        if let submitError { throw submitError }
        submitted.append(taskRequest)
    }

    func cancel(taskRequestWithIdentifier identifier: String) {
        cancelled.append(identifier)
    }

    func cancelAllTaskRequests() {
        cancelled.append("*")
    }
}

/// `SystemTaskScheduler`, the backend over `BGTaskScheduler`, against stand-ins with the SDK's declarations.
@MainActor
struct SystemTaskSchedulerTests {
    private let standIn = StandInScheduler()

    private func backend(
        environment: TaskSchedulerEnvironment = TaskSchedulerEnvironment()
    ) -> SystemTaskScheduler<StandInScheduler> {
        SystemTaskScheduler(
            standIn,
            appRefreshRequest: { StandInRefreshRequest(identifier: $0) },
            processingRequest: { StandInProcessingRequest(identifier: $0) },
            environment: { environment })
    }

    @Test func requestsBecomeTheFrameworksRequestTypesWithEveryProperty() throws {
        let backend = backend()
        let date = Date(timeIntervalSince1970: 1_000)
        try backend.submit(.appRefresh("refresh", earliestBeginDate: date))
        try backend.submit(
            .processing("cleanup", requiresNetworkConnectivity: true, requiresExternalPower: true))

        let refresh = try #require(standIn.submitted.first as? StandInRefreshRequest)
        #expect(refresh.identifier == "refresh")
        #expect(refresh.earliestBeginDate == date)
        let processing = try #require(standIn.submitted.last as? StandInProcessingRequest)
        #expect(processing.identifier == "cleanup")
        #expect(processing.requiresNetworkConnectivity && processing.requiresExternalPower)
        #expect(processing.earliestBeginDate == nil)
    }

    @Test(arguments: [
        (1, TaskSchedulingError.Code.unavailable), (2, .tooManyPendingTaskRequests), (3, .notPermitted),
        (4, .immediateRunIneligible), (99, .other),
    ])
    func theFrameworksErrorCodesBecomeTypedErrors(code: Int, expected: TaskSchedulingError.Code) {
        standIn.submitError = NSError(domain: "BGTaskSchedulerErrorDomain", code: code)
        do {
            try backend().submit(.appRefresh("refresh"))
            Issue.record("no error")
        } catch {
            #expect(error.code == expected)
            #expect(error.identifier == "refresh")
        }
    }

    @Test func anErrorOfAnotherDomainIsOther() {
        standIn.submitError = NSError(domain: NSCocoaErrorDomain, code: 3)
        #expect(throws: TaskSchedulingError(.other, identifier: "r", detail: "\(NSCocoaErrorDomain) 3")) {
            try backend().submit(.appRefresh("r"))
        }
    }

    @Test func aRefusedRegistrationIsNotPermitted() {
        standIn.refuses = true
        #expect(throws: TaskSchedulingError.self) { try backend().register(identifier: "refresh") { _ in } }
    }

    @Test func aLaunchedTaskCarriesTheHandlerAndTheCompletionToTheFrameworksTask() throws {
        let launched = Locked<(any LaunchedTask)?>(nil)
        try backend().register(identifier: "refresh") { task in launched.withLock { $0 = task } }
        let task = StandInTask(identifier: "refresh")
        standIn.handlers["refresh"]?(task)

        let seen = try #require(launched.value)
        #expect(seen.identifier == "refresh")
        let called = Locked(0)
        seen.setExpirationHandler { called.withLock { $0 += 1 } }
        task.expirationHandler?()
        #expect(called.value == 1)
        seen.setTaskCompleted(success: true)
        #expect(task.completions == [true])
        #expect(task.expirationHandler == nil)
    }

    @Test func safeTaskSchedulerOverTheFrameworkCompletesALaunchedTaskExactlyOnceOnExpiry() async throws {
        let scheduler = SafeTaskScheduler(backend: backend())
        try scheduler.register("refresh", windDownLimit: 0) {
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
        let task = StandInTask(identifier: "refresh")
        standIn.handlers["refresh"]?(task)
        let handler = try #require(task.expirationHandler, "the expiration handler is set before the launch returns")
        handler()  // the system's queue; here the main thread, which runs the cleanups directly
        #expect(task.completions == [false])
        try await Task.sleep(nanoseconds: 20_000_000)  // the work returns after its cancellation
        #expect(task.completions == [false])
    }

    @Test func cancelAndCancelAllReachTheFramework() {
        let backend = backend()
        backend.cancel(identifier: "refresh")
        backend.cancelAll()
        #expect(standIn.cancelled == ["refresh", "*"])
    }

    @Test func theEnvironmentIsReadAtEachCall() {
        let environment = TaskSchedulerEnvironment(
            permittedIdentifiers: ["a"], backgroundModes: ["fetch"], hasFinishedLaunching: true)
        #expect(backend(environment: environment).environment == environment)
    }
}
