import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// `BackgroundTaskManager.withTask`: the async, cancelling form of a manager task.
@MainActor
struct ManagerWithTaskTests {
    @Test func theTaskCoversTheBodyAndEndsWhenItReturns() async throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        let value = try await manager.withTask("Upload video") { () async -> Int in
            #expect(manager.outstandingTasks.map(\.name) == ["Upload video"])
            #expect(simulator.outstanding.count == 1)
            await Task.yield()
            return 42
        }
        #expect(value == 42)
        #expect(manager.outstandingTasks.isEmpty)
        simulator.advance(by: 5)  // the manager's shared assertion lingers briefly
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func anExpiryCancelsTheBodyNotTheCallerAndRunsTheCleanup() async throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        let journal = HandlerJournal()
        simulator.enterBackground()
        let caller = Task { @MainActor in
            do {
                try await manager.withTask("Long", onExpiration: { journal.note("cleanup") }) {
                    journal.note("body started")
                    for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }
                    try Task.checkCancellation()
                }
                journal.note("finished")
            } catch is CancellationError where !Task.isCancelled {
                journal.note("expired; the caller goes on")
            } catch {
                journal.note("unexpected: \(error)")
            }
            return Task.isCancelled
        }
        for _ in 0..<50 where journal.entries.isEmpty { await Task.yield() }
        simulator.advance(by: 30)
        let callerCancelled = await caller.value
        #expect(journal.entries == ["body started", "cleanup", "expired; the caller goes on"])
        #expect(!callerCancelled)
        try simulator.expectNoLeaks()
    }

    @Test func aRefusalIsThrownBeforeTheBodyRuns() async throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.maximumOutstandingTasks = 1
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        let holder = try manager.beginTask("Holder")
        var ran = false
        await #expect(throws: BackgroundTaskError.limitReached(limit: 1)) {
            try await manager.withTask("Second") { () async in ran = true }
        }
        #expect(!ran)
        holder.end()
        simulator.advance(by: 5)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theCallersCancellationReachesTheBody() async throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        let started = HandlerJournal()
        let caller = Task { @MainActor in
            try await manager.withTask("Cancelled by the caller") {
                started.note("started")
                for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }
                try Task.checkCancellation()
            }
        }
        for _ in 0..<50 where started.entries.isEmpty { await Task.yield() }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        simulator.advance(by: 5)
        try simulator.expectEveryAssertionEndedOnce()
    }
}

/// The sync `withBackgroundTask` body given its task, and what a task tells.
@MainActor
struct TaskPropertiesTests {
    @Test func theSyncBodyLearnsThatTimeRanOut() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        var pagesDone = 0
        withBackgroundTask("Compact database", backend: simulator) { task in
            for page in 1...10 {
                guard !task.isExpired else { break }
                simulator.advance(by: 5)  // each page takes 5 s: time runs out after the fifth
                pagesDone = page
            }
        }
        #expect(pagesDone == 6)  // the expiry came at 26 s, during the sixth page
        try simulator.expectNoLeaks()
    }

    @Test func aTaskTellsItsNameCallSiteAgeAndTimeRemaining() throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin("Upload", backend: simulator)
        #expect(task.name == "Upload")
        #expect(task.callSite.fileID == "BackgroundTaskKitTests/ManagerWithTaskTests.swift")
        #expect(task.backgroundTimeRemaining == nil)  // foreground
        simulator.enterBackground()
        simulator.advance(by: 10)
        #expect(task.age == 10)
        #expect(task.backgroundTimeRemaining == 20)
        #expect(!task.isExpired)
        simulator.advance(by: 20)
        #expect(task.isExpired)
        let scoped = ScopedBackgroundTask("Scoped", backend: simulator)
        #expect(scoped.name == "Scoped")
        #expect(scoped.callSite.line > 0)
        scoped.end()
        try simulator.expectNoLeaks()
    }
}

/// Configuration values can be written in one expression.
struct ConfigurationInitializerTests {
    @Test func eachConfigurationTakesItsValuesInOneExpressionAndDefaultsTheRest() {
        let manager = BackgroundTaskManager.Configuration(maximumOutstandingTasks: 10, minimumTimeRemaining: 5)
        var expected = BackgroundTaskManager.Configuration()
        expected.maximumOutstandingTasks = 10
        expected.minimumTimeRemaining = 5
        #expect(manager == expected)
        #expect(BackgroundTaskManager.Configuration(linger: 0).linger == 0)
        #expect(DiagnosingBackend.Configuration(assertionLimit: nil).assertionLimit == nil)
        #expect(DiagnosingBackend.Configuration(staleTaskAge: 5) != DiagnosingBackend.Configuration())
        let simulator = SimulatorConfiguration(backgroundTimeBudget: 10, debuggerAttached: true)
        #expect(simulator.backgroundTimeBudget == 10)
        #expect(simulator.debuggerAttached)
        #expect(simulator.expirationLead == SimulatorConfiguration().expirationLead)
    }

    @Test func theLimitRefusalDoesNotTellACoalescingManagerToCoalesce() {
        let message = BackgroundTaskError.limitReached(limit: 3).description
        #expect(!message.contains("coalesce"))
        #expect(message.contains("maximumOutstandingTasks"))
    }
}
