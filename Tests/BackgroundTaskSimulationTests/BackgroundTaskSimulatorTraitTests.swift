import BackgroundTaskKitTesting
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

    @Test func theTraitFailsATestThatLeavesATaskHeld() async throws {
        let held = Locked<SafeBackgroundTask?>(nil)
        try await withKnownIssue {
            try await BackgroundTaskSimulatorTrait.backgroundTaskSimulator.provideScope(
                for: try #require(Test.current), testCase: Test.Case.current
            ) {
                held.withLock { $0 = SafeBackgroundTask.begin("Held") }
            }
        } matching: { issue in
            String(describing: issue).contains("1 assertion(s) are still held")
        }
        held.withLock { $0?.end() }
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
