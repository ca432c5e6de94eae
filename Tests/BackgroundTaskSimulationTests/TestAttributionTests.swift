import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Where points of two concurrent tasks (or tests) meet: one arrives, the other waits for it.
actor Meeting {
    private var arrived: Set<String> = []

    func arrive(_ point: String) {
        arrived.insert(point)
    }

    /// Waits until `point` is reached, for at most `seconds`; returns whether it was.
    func wait(for point: String, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !arrived.contains(point) {
            guard Date() < deadline else { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }
}

/// A begin that falls through to the platform's backend while `withBackgroundTaskBackend` is in force is blamed on the
/// test that made it, never on a test that merely runs at the same time.
@Suite(.failuresOnPurpose)
struct TestAttributionTests {
    private static let fileID = "BackgroundTaskSimulationTests/TestAttributionTests.swift"

    @Test func aBeginOnThisTestsTaskThatItsScopeDoesNotReachFailsItsSimulator() async throws {
        let simulator = BackgroundTaskSimulator()
        let meeting = Meeting()
        async let scope: Void = withBackgroundTaskBackend(simulator) {
            await meeting.arrive("in scope")
            _ = await meeting.wait(for: "began")
        }
        #expect(await meeting.wait(for: "in scope"))
        // A sibling of the scope, on this test's task: the override does not reach it, but the test is known.
        SafeBackgroundTask.begin("Sibling").end()
        await meeting.arrive("began")
        await scope
        let unreached = simulator.events.compactMap { event -> String? in
            if case .misuse(.defaultBackendNotReached(let callSite)) = event { callSite.fileID } else { nil }
        }
        #expect(unreached == [Self.fileID])
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    @Test func aBeginInATestWithoutAScopeWarnsThatTestAndBlamesNoScopeEnteredElsewhere() async throws {
        let simulator = BackgroundTaskSimulator()
        let meeting = Meeting()
        // Entered outside any test: no test's task-locals reach a detached task.
        let elsewhere = Task.detached {
            await withBackgroundTaskBackend(simulator) {
                await meeting.arrive("in scope")
                _ = await meeting.wait(for: "began")
            }
        }
        #expect(await meeting.wait(for: "in scope"))
        let reports = TestAttribution.shared.capturing(fileID: Self.fileID) {
            SafeBackgroundTask.begin("Forgot its simulator").end()
        }.reports
        await meeting.arrive("began")
        await elsewhere.value
        let thisTest = try #require(Test.current).id
        #expect(reports.map(\.test) == [String(describing: thisTest)])
        #expect(reports.map(\.callSite.fileID) == [Self.fileID])
        #expect(simulator.events.isEmpty)
        try simulator.expectNoLeaks()
    }
}

/// Issue 22's story, as two tests that run at the same time: one tests its code with a simulator, the other forgot
/// to inject one. The one with the simulator passes; the one that forgot is warned, naming its line.
///
/// They meet while both run, so they need Swift Testing's default parallel run (`swift test`): each waits up to a
/// minute for the other, then fails saying it ran alone.
@Suite struct ParallelTestAttributionTests {
    private static let meeting = Meeting()
    private static let fileID = "BackgroundTaskSimulationTests/TestAttributionTests.swift"

    @Test func aTestWithASimulatorIsNotBlamedForAConcurrentTestsBegin() async throws {
        let simulator = BackgroundTaskSimulator()
        let ranTogether = await withBackgroundTaskBackend(simulator) {
            await Self.meeting.arrive("scope entered")
            return await Self.meeting.wait(for: "forgetful test began")
        }
        #expect(ranTogether, "the other test did not run meanwhile: run the tests in parallel")
        #expect(simulator.events.isEmpty)
        try simulator.expectNoLeaks()
    }

    @Test func aTestThatForgotItsSimulatorIsWarnedItselfNamingItsLine() async throws {
        let ranTogether = await Self.meeting.wait(for: "scope entered")
        let reports = TestAttribution.shared.capturing(fileID: Self.fileID) {
            SafeBackgroundTask.begin("Upload").end()
        }.reports
        await Self.meeting.arrive("forgetful test began")
        #expect(ranTogether, "the other test did not run meanwhile: run the tests in parallel")
        let thisTest = String(describing: try #require(Test.current).id)
        #expect(reports.map(\.test) == [thisTest])
        #expect(reports.first?.callSite.line == #line - 6)
    }
}
