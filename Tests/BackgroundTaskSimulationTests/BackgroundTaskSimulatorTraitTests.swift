import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// The `.backgroundTaskSimulator` trait: a fresh simulator per test, used by faces begun on the test's task, checked
/// for leaks when the test returns.
struct BackgroundTaskSimulatorTraitTests {
    @Test(.backgroundTaskSimulator) func theTraitsSimulatorIsTheDefaultBackendOfTheTest() throws {
        let simulator = try #require(BackgroundTaskSimulator.current)
        SafeBackgroundTask.begin("Upload").end()
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Upload"])
    }

    @Test(.backgroundTaskSimulator) func theTraitsSimulatorReachesChildTasks() async throws {
        let simulator = try #require(BackgroundTaskSimulator.current)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { withBackgroundTask("Child") {} }
        }
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Child"])
    }

    @MainActor @Test(.backgroundTaskSimulator) func theTraitsSimulatorIsDrivenAsUsual() throws {
        let simulator = try #require(BackgroundTaskSimulator.current)
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Export", onExpiration: {})
        simulator.advance(by: 60)
        #expect(task.state == .expired)
        try simulator.expectNoLeaks()
    }

    /// Runs `body` as a test under `trait` would run, and returns the issues the trait recorded.
    private func issues(
        under trait: BackgroundTaskSimulatorTrait = .backgroundTaskSimulator,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws -> [TestKitIssueRecording.Recorded] {
        let test = try #require(Test.current)
        return try await TestKitIssueRecording.capturing {
            try await TimelineAttachments.$isSuppressed.withValue(true) {
                try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
            }
        }
    }

    @Test func theTraitFailsATestThatLeavesATaskHeldAtTheTestsDeclaration() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let recorded = try await issues { held.withLock { $0 = SafeBackgroundTask.begin("Held") } }
        held.withLock { $0?.end() }
        let issue = try #require(recorded.first)
        #expect(recorded.count == 1)
        #expect(issue.message.hasPrefix("Expected no leaks, but 1 assertion(s) are still held: 1 (\"Held\")"))
        #expect(issue.comment == "The .backgroundTaskSimulator trait found a leak after the test returned")
        #expect(issue.sourceLocation == Test.current?.sourceLocation)
    }

    // MARK: - Every face and manager that ends its tasks passes

    @Test func aDefaultManagerWhoseTasksAllEndedPassesThoughItsAssertionLingers() async throws {
        let recorded = try await issues {
            let manager = BackgroundTaskManager()
            for name in ["Upload a", "Upload b"] { try manager.beginTask(name).end() }
            let simulator = try #require(BackgroundTaskSimulator.current)
            #expect(simulator.outstanding.count == 1)  // the shared assertion, lingering
        }
        #expect(recorded.isEmpty)
    }

    @Test func aDefaultManagerInTheBackgroundPassesAfterItsLingerPlays() async throws {
        let simulator = Locked<BackgroundTaskSimulator?>(nil)
        let recorded = try await issues { @MainActor in
            let current = try #require(BackgroundTaskSimulator.current)
            simulator.withLock { $0 = current }
            current.enterBackground()
            try BackgroundTaskManager().beginTask("Flush").end()
        }
        #expect(recorded.isEmpty)
        let settled = try #require(simulator.withLock { $0 })
        #expect(settled.outstanding.isEmpty)
        #expect(settled.now == 0.5)  // the linger's length of virtual time, no more
    }

    @Test func aManagerWhoseSharedAssertionWasRenewedPasses() async throws {
        let recorded = try await issues { @MainActor in
            let simulator = try #require(BackgroundTaskSimulator.current)
            let task = try BackgroundTaskManager().beginTask("Long sync")
            simulator.advance(by: 25)  // handed over to a fresh assertion at 20 s
            task.end()
            #expect(simulator.assertionHistory.count == 2)
        }
        #expect(recorded.isEmpty)
    }

    @Test func anEndInFlightOnAnotherThreadWhenTheTestReturnsPasses() async throws {
        let trait = BackgroundTaskSimulatorTrait.backgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let recorded = try await issues(under: trait) {
            let simulator = try #require(BackgroundTaskSimulator.current)
            let task = SafeBackgroundTask.begin("Save")
            Thread { task.end() }.start()
            try await simulator.waitForHeldCalls(1)  // the end is on its way to the system when the test returns
        }
        #expect(recorded.isEmpty)
    }

    @Test func everyFaceThatEndsItsTaskPasses() async throws {
        let recorded = try await issues {
            SafeBackgroundTask.begin("Safe").end()
            ScopedBackgroundTask("Scoped").end()
            withBackgroundTask("Closure") {}
            await withBackgroundTask("Async closure") { await Task.yield() }
            let separate = BackgroundTaskManager(configuration: .init(coalescesAssertions: false))
            try separate.beginTask("Separate").end()
            let lazy = BackgroundTaskManager(configuration: .init(holdsAssertionOnlyInBackground: true))
            try await lazy.withTask("Lazy") { await Task.yield() }
        }
        #expect(recorded.isEmpty)
    }

    @Test func aManagerWhoseLingerWouldReachTheExpiryPasses() async throws {
        let recorded = try await issues { @MainActor in
            let simulator = try #require(BackgroundTaskSimulator.current)
            simulator.enterBackground()
            let task = try BackgroundTaskManager(configuration: .init(linger: 10)).beginTask("Flush")
            simulator.advance(by: 20)  // 10 s left: a 10 s linger would run into the expiry, so it does not linger
            task.end()
        }
        #expect(recorded.isEmpty)
    }

    // MARK: - A leak still fails

    @Test func aManagersTaskReleasedWhileRunningFailsNamingItsLine() async throws {
        let recorded = try await issues {
            _ = try BackgroundTaskManager().beginTask("Dropped")
        }
        #expect(recorded.count == 1)
        #expect(
            recorded.first?.message.contains("1 task(s) were released while running and ended by the safety net")
                == true,
            "\(recorded.first?.message ?? "")")
        #expect(recorded.first?.message.contains("BackgroundTaskSimulatorTraitTests.swift") == true)
    }

    @Test func aManagersTaskStillRunningFails() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let recorded = try await issues {
            held.withLock { $0 = try? BackgroundTaskManager().beginTask("Still running") }
        }
        held.withLock { $0?.end() }
        #expect(recorded.count == 1)
        #expect(recorded.first?.message.contains("1 assertion(s) are still held") == true)
    }

    @Test func aTaskBegunByATimerTheTraitPlaysIsCheckedToo() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let recorded = try await issues { @MainActor in
            let simulator = try #require(BackgroundTaskSimulator.current)
            try BackgroundTaskManager().beginTask("Upload").end()  // lingers: settling plays its timer
            simulator.schedule(after: 0.2) { held.withLock { $0 = SafeBackgroundTask.begin("Late sync") } }
        }
        held.withLock { $0?.end() }
        #expect(recorded.count == 1)
        #expect(recorded.first?.message.contains("\"Late sync\"") == true)
    }

    @Test func aBeginHeldOnAnotherThreadLandsAndItsLeakFails() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let trait = BackgroundTaskSimulatorTrait.backgroundTaskSimulator(faults: [.holdOffMainCalls(.begins)])
        let recorded = try await issues(under: trait) {
            let simulator = try #require(BackgroundTaskSimulator.current)
            let backend = simulator
            Thread { held.withLock { $0 = SafeBackgroundTask.begin("Never ended", backend: backend) } }.start()
            try await simulator.waitForHeldCalls(1)
        }
        held.withLock { $0?.end() }
        #expect(recorded.count == 1)
        #expect(recorded.first?.message.contains("\"Never ended\"") == true)
    }

    @Test func settlingNeverMovesIntoAnExpiryThatWouldHideALeak() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let recorded = try await issues { @MainActor in
            let simulator = try #require(BackgroundTaskSimulator.current)
            simulator.enterBackground()
            held.withLock { $0 = SafeBackgroundTask.begin("Forgotten", onExpiration: {}) }
            simulator.advance(by: 20)
            // With 10 s of background time left, an app timer due in 9 s: settling must stop before the expiry (in
            // 6 s), where the forgotten task's handler would end it and hide the leak.
            simulator.schedule(after: 9) {}
        }
        held.withLock { $0?.end() }
        #expect(recorded.count == 1)
        #expect(recorded.first?.message.contains("\"Forgotten\"") == true)
    }

    @Test func aTraitThatDoesNotCheckLeavesAHeldTaskToTheTest() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        let trait = BackgroundTaskSimulatorTrait.backgroundTaskSimulator(checksForLeaks: false)
        try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
            held.withLock { $0 = SafeBackgroundTask.begin("Held") }
        }
        #expect(held.withLock { $0?.state } == .running)
        held.withLock { $0?.end() }
    }
}

/// On a suite, each test gets a simulator of its own.
@Suite(.backgroundTaskSimulator) struct BackgroundTaskSimulatorSuiteTraitTests {
    @Test func theFirstTestSeesOnlyItsOwnTasks() throws {
        SafeBackgroundTask.begin("First").end()
        #expect(try #require(BackgroundTaskSimulator.current).assertionHistory.map(\.assertion.name) == ["First"])
    }

    @Test func theSecondTestSeesOnlyItsOwnTasks() throws {
        SafeBackgroundTask.begin("Second").end()
        #expect(try #require(BackgroundTaskSimulator.current).assertionHistory.map(\.assertion.name) == ["Second"])
    }
}
