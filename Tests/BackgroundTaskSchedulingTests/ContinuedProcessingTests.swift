import BackgroundTaskKitTesting
import BackgroundTaskScheduling
import Foundation
import TestSupport
import Testing

/// A person-started job as a continued-processing task (iOS 26) on the simulator, or under an ordinary background task
/// where that cannot be: one completion, the same cancellation.
@MainActor
struct ContinuedProcessingTests {
    nonisolated static let prefix = "com.example.app.export"

    private func request(strategy: ContinuedProcessingRequest.Strategy = .queue, gpu: Bool = false)
        -> ContinuedProcessingRequest
    {
        ContinuedProcessingRequest(
            identifier: ContinuedProcessingRequest.uniqueIdentifier(prefix: Self.prefix), title: "Exporting",
            subtitle: "Holiday", strategy: strategy, requiresGPU: gpu)
    }

    private func simulator(_ change: (inout SimulatorConfiguration) -> Void = { _ in }) -> BackgroundTaskSimulator {
        var configuration = SimulatorConfiguration()
        configuration.permittedTaskIdentifiers = ["\(Self.prefix).*"]
        change(&configuration)
        return BackgroundTaskSimulator(configuration: configuration)
    }

    private func completions(_ simulator: BackgroundTaskSimulator) -> [SimulatorEvent] {
        simulator.events.filter { if case .scheduledTaskCompleted = $0 { true } else { false } }
    }

    // MARK: - As continued processing

    @Test func aJobRunsAsContinuedProcessingReportsProgressAndCompletesOnceWithSuccess() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let request = request()
        let (value, shown) = try await scheduler.runContinuedProcessing(request) { progress in
            progress.update(completed: 5, of: 10)
            progress.update(completed: 20, of: 10)  // clamped to the total
            return (42, progress.runsInLiveActivity)
        }

        #expect(value == 42 && shown)
        #expect(
            simulator.events == [
                .scheduledTaskRegistered(identifier: request.identifier),
                .continuedProcessingSubmitted(identifier: request.identifier, queued: false),
                .scheduledTaskLaunched(identifier: request.identifier),
                .continuedProcessingProgress(identifier: request.identifier, completed: 5, total: 10),
                .continuedProcessingProgress(identifier: request.identifier, completed: 10, total: 10),
                .scheduledTaskCompleted(identifier: request.identifier, success: true),
            ])
        #expect(simulator.outstanding.isEmpty, "no background-task assertion: the system runs the job")
    }

    @Test func aJobThatStopsReportingProgressIsExpiredCancelledAndCompletedOnce() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let request = request()
        let journal = HandlerJournal()
        let job = Task.detached {
            try await scheduler.runContinuedProcessing(request, onExpiration: { journal.note("stopped") }) { progress in
                progress.update(completed: 1, of: 100)
                while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
                try Task.checkCancellation()
            }
        }
        #expect(await waitUntil("the job reports") { simulator.events.count >= 4 })
        simulator.advance(by: 59)
        #expect(completions(simulator).isEmpty, "not stalled yet")
        simulator.advance(by: 2)

        await #expect(throws: CancellationError.self) { try await job.value }
        #expect(simulator.events.contains(.scheduledTaskExpired(identifier: request.identifier, hasHandler: true)))
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: request.identifier, success: false)])
        #expect(journal.entries == ["stopped"])
        #expect(simulator.termination == nil)
    }

    @Test func thePersonsStopIsTheSameOutcomeAsAnExpiry() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let request = request()
        let job = Task.detached {
            try await scheduler.runContinuedProcessing(request) { _ in
                while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
                try Task.checkCancellation()
            }
        }
        #expect(await waitUntil("the job starts") { !simulator.runningScheduledTasks.isEmpty })
        simulator.stopContinuedProcessing(request.identifier)

        await #expect(throws: CancellationError.self) { try await job.value }
        #expect(simulator.events.contains(.continuedProcessingStopped(identifier: request.identifier)))
        #expect(completions(simulator) == [.scheduledTaskCompleted(identifier: request.identifier, success: false)])
    }

    @Test func aQueuedJobStartsWhenTheRunningOneCompletes() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let first = request()
        let second = request()
        let release = Locked(false)
        let firstJob = Task.detached {
            try await scheduler.runContinuedProcessing(first) { _ in
                while !release.value { try? await Task.sleep(nanoseconds: 1_000_000) }
            }
        }
        #expect(await waitUntil("the first job starts") { !simulator.runningScheduledTasks.isEmpty })
        let secondJob = Task.detached { try await scheduler.runContinuedProcessing(second) { _ in "second" } }
        #expect(await waitUntil("the second is queued") { !simulator.queuedContinuedProcessingRequests.isEmpty })

        release.withLock { $0 = true }
        try await firstJob.value
        simulator.advance(by: 0)  // room again: the queued job starts
        #expect(try await secondJob.value == "second")
        #expect(
            completions(simulator) == [
                .scheduledTaskCompleted(identifier: first.identifier, success: true),
                .scheduledTaskCompleted(identifier: second.identifier, success: true),
            ])
    }

    @Test func aCallerCancelledWhileQueuedGivesUpAndTheRequestLeavesTheQueue() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let release = Locked(false)
        let running = Task.detached {
            try await scheduler.runContinuedProcessing(request()) { _ in
                while !release.value { try? await Task.sleep(nanoseconds: 1_000_000) }
            }
        }
        #expect(await waitUntil("the first job starts") { !simulator.runningScheduledTasks.isEmpty })
        let queued = Task.detached { try await scheduler.runContinuedProcessing(request()) { _ in } }
        #expect(await waitUntil("the second is queued") { !simulator.queuedContinuedProcessingRequests.isEmpty })
        queued.cancel()

        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(simulator.queuedContinuedProcessingRequests.isEmpty)
        release.withLock { $0 = true }
        try await running.value
    }

    // MARK: - Falling back to an ordinary background task

    @Test func beforeIOS26TheJobRunsUnderABackgroundTaskNamedByItsTitle() async throws {
        let simulator = BackgroundTaskSimulator()
        let scheduler = SafeTaskScheduler(backend: UnavailableTaskScheduler(), fallbackBackend: simulator)
        let shown = try await scheduler.runContinuedProcessing(request()) { progress in
            progress.update(completed: 1, of: 2)
            #expect(progress.completed == 1 && progress.total == 2)
            return progress.runsInLiveActivity
        }
        #expect(!shown)
        #expect(simulator.events == [.began(id(1), name: "Exporting"), .ended(id(1))])
    }

    @Test func submittedFromTheBackgroundTheJobFallsBackOrIsRefused() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        simulator.enterBackground()
        let shown = try await scheduler.runContinuedProcessing(request()) { $0.runsInLiveActivity }
        #expect(!shown)
        #expect(simulator.events.contains(.began(id(1), name: "Exporting")))

        await #expect(throws: TaskSchedulingError.self) {
            try await scheduler.runContinuedProcessing(self.request(), fallsBackToBackgroundTask: false) { _ in }
        }
    }

    @Test func withTheFailStrategyAndNoRoomTheRefusalIsImmediateRunIneligible() async throws {
        let simulator = simulator { $0.maximumRunningContinuedProcessingTasks = 0 }
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        do {
            try await scheduler.runContinuedProcessing(request(strategy: .fail), fallsBackToBackgroundTask: false) {
                _ in
            }
            Issue.record("not refused")
        } catch let error as TaskSchedulingError {
            #expect(error.code == .immediateRunIneligible)
        }
        let shown = try await scheduler.runContinuedProcessing(request(strategy: .fail)) { $0.runsInLiveActivity }
        #expect(!shown, "fell back")
    }

    @Test func theGPUIsAskedForOnlyWhereTheDeviceHasIt() async throws {
        let without = simulator()
        let shownWithout = try await SafeTaskScheduler(backend: without, fallbackBackend: without)
            .runContinuedProcessing(request(gpu: true)) { $0.runsInLiveActivity }
        #expect(!shownWithout)
        #expect(!without.events.contains { if case .continuedProcessingSubmitted = $0 { true } else { false } })

        let with = simulator { $0.supportsBackgroundGPU = true }
        let shownWith = try await SafeTaskScheduler(backend: with, fallbackBackend: with)
            .runContinuedProcessing(request(gpu: true)) { $0.runsInLiveActivity }
        #expect(shownWith)
    }

    @Test func anIdentifierOutsideThePermittedWildcardFallsBack() async throws {
        let simulator = simulator()
        let scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let other = ContinuedProcessingRequest(identifier: "com.example.app.other.1", title: "Other", subtitle: "")
        let shown = try await scheduler.runContinuedProcessing(other) { $0.runsInLiveActivity }
        #expect(!shown)
        await #expect(throws: TaskSchedulingError(.invalidIdentifier, identifier: "")) {
            try await scheduler.runContinuedProcessing(
                ContinuedProcessingRequest(identifier: "", title: "", subtitle: "")
            ) { _ in }
        }
    }
}
