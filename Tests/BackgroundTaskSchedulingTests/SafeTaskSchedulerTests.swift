import BackgroundTaskKitTesting
import BackgroundTaskScheduling
import Foundation
import TestSupport
import Testing

/// `SafeTaskScheduler` over the simulated `BGTaskScheduler`: every launched task is completed exactly once, on every
/// path, as the system sees it.
@MainActor
struct SafeTaskSchedulerTests {
    nonisolated static let refresh = "com.example.feed.refresh"
    nonisolated static let cleanup = "com.example.db.cleanup"

    /// A simulated app that registered, finished launching, submitted and was suspended; then the system launches it.
    private func launched(
        _ identifier: String = refresh,
        request: ScheduledTaskRequest? = nil,
        configuration: SimulatorConfiguration = SimulatorConfiguration(),
        register: (SafeTaskScheduler) throws -> Void
    ) throws -> BackgroundTaskSimulator {
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let scheduler = SafeTaskScheduler(backend: simulator)
        try register(scheduler)
        simulator.finishLaunching()
        try scheduler.submit(request ?? .appRefresh(identifier))
        simulator.enterBackground()
        simulator.advance(by: 1)
        #expect(simulator.appState == .suspended)
        simulator.runScheduledTask(identifier)
        return simulator
    }

    private func completions(_ simulator: BackgroundTaskSimulator) -> [SimulatorEvent] {
        simulator.events.filter { event in
            switch event {
            case .scheduledTaskCompleted, .scheduledTaskCompletionIgnored: true
            default: false
            }
        }
    }

    // MARK: - Every path completes once

    @Test func workThatReturnsCompletesTheTaskOnceWithSuccessAndTheAppIsSuspended() async throws {
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh) { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        #expect(simulator.appState == .background, "launched for the task")
        #expect(try await simulator.waitForScheduledTaskCompletion(Self.refresh))
        simulator.advance(by: 1)

        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: true)])
        #expect(simulator.appState == .suspended)
        #expect(simulator.termination == nil)
        #expect(simulator.runningScheduledTasks.isEmpty)
    }

    @Test func waitingForACompletionThatNeverComesThrowsNamingTheTask() async throws {
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh) { try await Task.sleep(nanoseconds: 60_000_000_000) }
        }
        let failure = try await #require(throws: SimulatorExpectationFailure.self) {
            try await simulator.waitForScheduledTaskCompletion(Self.refresh, timeout: 0.05)
        }
        #expect(failure.message.contains("Expected 1 completion(s) of the launched task \(Self.refresh)"))
        #expect(try await simulator.waitForScheduledTaskCompletion(Self.refresh, count: 0) == false)
        simulator.advance(by: 60)  // expired: the work is cancelled and the task completed unsuccessfully
        #expect(try await simulator.waitForScheduledTaskCompletion(Self.refresh) == false)
    }

    @Test func workThatThrowsCompletesTheTaskOnceUnsuccessfully() async throws {
        struct FeedUnavailable: Error {}
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh) { throw FeedUnavailable() }
        }
        #expect(await waitUntil("the completion") { !completions(simulator).isEmpty })
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: false)])
    }

    @Test func theNextRequestIsSubmittedBeforeEveryCompletion() async throws {
        let next = ScheduledTaskRequest.appRefresh(Self.refresh, earliestBeginDate: Date(timeIntervalSince1970: 1e9))
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh, nextRequest: { next }) {}
        }
        #expect(await waitUntil("the completion") { !completions(simulator).isEmpty })
        let submitted = try #require(simulator.events.lastIndex(of: .scheduledTaskSubmitted(next)))
        let completed = try #require(simulator.events.firstIndex(of: completions(simulator)[0]))
        #expect(submitted < completed)
        #expect(simulator.pendingTaskRequests == [next])
    }

    @Test func onExpiryTheWorkIsCancelledTheCleanupRunsAndTheTaskCompletesOnceUnsuccessfully() async throws {
        let journal = HandlerJournal()
        let sawCancellation = Locked(false)
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh, onExpiration: { journal.note("cleanup") }) {
                while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
                sawCancellation.withLock { $0 = true }
            }
        }
        simulator.advance(by: 30)  // the refresh task's time

        #expect(simulator.events.contains(.scheduledTaskExpired(identifier: Self.refresh, hasHandler: true)))
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: false)])
        #expect(journal.entries == ["cleanup"])
        #expect(journal.ranOnMainActor == [true])
        #expect(simulator.termination == nil)
        #expect(await waitUntil("the work to see the cancellation") { sawCancellation.value })
        simulator.advance(by: 10)
        #expect(completions(simulator).count == 1)
        #expect(simulator.appState == .suspended)
    }

    @Test func onExpiryTheCompletionWaitsForTheWorkToReleaseItsLockBeforeSuspension() async throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: simulator)
        try scheduler.register(Self.cleanup, windDownLimit: 2) {
            let lock = simulator.takeFileLock("Shared.sqlite")
            defer { lock.release() }
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
            // Unwinding takes a moment: 20 ms of real time, cancelled or not.
            let until = Date(timeIntervalSinceNow: 0.02)
            while Date() < until { await Task.yield() }
        }
        simulator.finishLaunching()
        try scheduler.submit(.processing(Self.cleanup))
        simulator.runScheduledTask(Self.cleanup)
        #expect(await waitUntil("the work holds its lock") { !simulator.heldFileLocks.isEmpty })
        simulator.enterBackground()
        simulator.userStartsUsingDevice()  // the system ends processing tasks at once
        simulator.advance(by: 1)

        #expect(simulator.termination == nil)
        let released = try #require(simulator.events.firstIndex(of: .fileLockReleased(name: "Shared.sqlite")))
        let completed = try #require(
            simulator.events.firstIndex(of: .scheduledTaskCompleted(identifier: Self.cleanup, success: false)))
        #expect(released < completed)
        #expect(simulator.appState == .suspended)
    }

    // MARK: - The callback face

    @Test func aCallbackTaskCompletesOnceHoweverOftenItIsCompleted() async throws {
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh) { (task: SafeScheduledTask) in
                #expect(task.identifier == Self.refresh)
                #expect(task.isRunning)
                task.complete(success: true)
                task.complete(success: false)
                #expect(!task.isRunning)
            }
        }
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: true)])
    }

    @Test func aCallbackTaskExpiresRunsItsCleanupThenCompletesUnsuccessfully() async throws {
        let journal = HandlerJournal()
        let kept = Locked<SafeScheduledTask?>(nil)
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh, onExpiration: { journal.note("interrupt") }) { task in
                kept.withLock { $0 = task }  // the work runs on
            }
        }
        simulator.advance(by: 30)
        let task = try #require(kept.value)
        #expect(task.isExpired)
        task.complete(success: true)  // too late: nothing reaches the system
        #expect(journal.entries == ["interrupt"])
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: false)])
        #expect(simulator.termination == nil)
    }

    @Test func aCallbackTaskDroppedBeforeItCompletedIsCompletedByTheSafetyNet() async throws {
        let simulator = try launched { scheduler in
            try scheduler.register(Self.refresh) { _ in }  // the task is dropped at once
        }
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: Self.refresh, success: false)])
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
    }

    // MARK: - What the raw API does wrong, the simulator kills

    @Test func aRawHandlerThatSetsAnExpirationHandlerButNeverCompletesIsKilled() throws {
        let simulator = BackgroundTaskSimulator()
        let kept = Locked<(any LaunchedTask)?>(nil)
        try simulator.register(identifier: Self.refresh) { task in
            task.setExpirationHandler {}  // cancels nothing, completes nothing
            kept.withLock { $0 = task }
        }
        simulator.finishLaunching()
        try simulator.submit(.appRefresh(Self.refresh))
        simulator.runScheduledTask(Self.refresh)
        simulator.advance(by: 60)

        try simulator.expectTermination(.watchdogTimeout, at: 35)
        #expect(simulator.termination?.reason == .scheduledTaskNotCompleted)
    }

    @Test func aRawHandlerWithoutAnExpirationHandlerIsMarkedCompleteAndUnsuccessfulBySystem() throws {
        let simulator = BackgroundTaskSimulator()
        let kept = Locked<(any LaunchedTask)?>(nil)
        try simulator.register(identifier: Self.refresh) { task in kept.withLock { $0 = task } }
        simulator.finishLaunching()
        try simulator.submit(.appRefresh(Self.refresh))
        simulator.runScheduledTask(Self.refresh)
        simulator.advance(by: 60)

        #expect(simulator.termination == nil)
        #expect(simulator.events.contains(.scheduledTaskExpired(identifier: Self.refresh, hasHandler: false)))
        kept.value?.setTaskCompleted(success: true)
        #expect(simulator.events.last == .scheduledTaskCompletionIgnored(identifier: Self.refresh))
    }
}
