import BackgroundTaskKitTesting
import TestSupport
import Testing

@Suite(.failuresOnPurpose)
@MainActor
struct TestingHelperTests {
    // MARK: - UnimplementedBackend

    @Test func touchingTheUnimplementedBackendRecordsAnIssueWhereItWasMade() {
        let backend = UnimplementedBackend()
        let made = #_sourceLocation
        let recorded = TestKitIssueRecording.capturingSynchronously {
            _ = backend.beginBackgroundTask(named: "Should not happen", expirationHandler: nil)
            backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 7))
            _ = backend.backgroundTimeRemaining
        }
        #expect(
            recorded.map(\.message) == [
                "UnimplementedBackend.beginBackgroundTask(named: \"Should not happen\") was called",
                "UnimplementedBackend.endBackgroundTask(7 (0x7)) was called",
                "UnimplementedBackend.backgroundTimeRemaining was called",
            ]
        )
        #expect(
            recorded.allSatisfy { $0.sourceLocation.fileID == made.fileID && $0.sourceLocation.line == made.line - 1 })
        #expect(
            backend.touches == [
                "beginBackgroundTask(named: \"Should not happen\")", "endBackgroundTask(7 (0x7))",
                "backgroundTimeRemaining",
            ]
        )
    }

    @Test func theUnimplementedBackendRefuses() {
        let backend = UnimplementedBackend()
        let recorded = TestKitIssueRecording.capturingSynchronously {
            #expect(backend.beginBackgroundTask(named: nil, expirationHandler: nil) == nil)
        }
        #expect(recorded.count == 1)
    }

    // MARK: - Settling

    @Test func aLingeringManagerAssertionFailsTheCheckWithAHintAndSettlingEndsIt() async throws {
        let simulator = BackgroundTaskSimulator()
        try BackgroundTaskManager(backend: simulator).beginTask("Upload").end()
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message.contains("`await simulator.settle()` first lets it run"))
        await simulator.settle()
        try simulator.expectNoLeaks()
        #expect(simulator.now == 0.5)
        #expect(simulator.assertionHistory.first?.ending == .ended(at: 0.5))
    }

    @Test(arguments: [0, -1, Double.nan, -Double.infinity])
    func settlingWithinNoTimeLetsNoTimePass(limit: Double) async throws {
        let simulator = BackgroundTaskSimulator()
        try BackgroundTaskManager(backend: simulator).beginTask("Upload").end()
        await simulator.settle(within: limit)
        #expect(simulator.now == 0)
        #expect(simulator.outstanding.count == 1)
    }

    @Test func aTimerThatKeepsSchedulingItselfCannotHoldSettlingLong() async throws {
        let simulator = BackgroundTaskSimulator()
        _ = simulator.beginBackgroundTask(named: "Lost", expirationHandler: nil)
        let firings = Locked(0)
        @Sendable func poll() {
            firings.withLock { $0 += 1 }
            simulator.schedule(after: 0, poll)
        }
        simulator.schedule(after: 0, poll)
        await simulator.settle()
        #expect(firings.value == 1_000)  // the most one settle plays
        #expect(!simulator.events.contains { if case .misuse = $0 { true } else { false } })
        #expect(simulator.outstanding.map(\.name) == ["Lost"])
    }

    @Test func settlingLeavesALostEndHeldAndMovesNoTimeWithoutATimer() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        _ = simulator.beginBackgroundTask(named: "Lost", expirationHandler: nil)
        await simulator.settle()
        #expect(simulator.now == 0)
        #expect(simulator.outstanding.map(\.name) == ["Lost"])
    }

    // MARK: - Expectations

    @Test func expectNoLeaksNamesTheAssertionsStillHeld() throws {
        let simulator = BackgroundTaskSimulator()
        _ = simulator.beginBackgroundTask(named: "Forgotten", expirationHandler: nil)
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.message == "Expected no leaks, but 1 assertion(s) are still held: 1 (\"Forgotten\")")
        #expect(failure.description.contains("Simulator log:"))
    }

    @Test func expectTerminationFailsForTheWrongCodeOrTime() throws {
        let simulator = BackgroundTaskSimulator()
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectTermination(.watchdogTimeout) }
        simulator.enterBackground()
        _ = simulator.beginBackgroundTask(named: "Leak", expirationHandler: nil)
        simulator.advance(by: 40)
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectTermination(.tooManyAssertions) }
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectTermination(.watchdogTimeout, at: 31) }
        try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    @Test func expectConsoleMessageChecksTheStructuredMessage() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 3))
        try simulator.expectConsoleMessage(.cannotEndTask(BackgroundTaskIdentifier(rawValue: 3)))
        #expect(throws: SimulatorExpectationFailure.self) {
            try simulator.expectConsoleMessage(.cannotEndTask(BackgroundTaskIdentifier(rawValue: 4)))
        }
    }
}
