import BackgroundTaskKitTesting
import Testing

@MainActor
struct TestingHelperTests {
    // MARK: - UnimplementedBackend

    @Test func touchingTheUnimplementedBackendRecordsAnIssue() {
        let backend = UnimplementedBackend()
        withKnownIssue {
            _ = backend.beginBackgroundTask(named: "Should not happen", expirationHandler: nil)
        }
        withKnownIssue {
            backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 7))
        }
        withKnownIssue {
            _ = backend.backgroundTimeRemaining
        }
        #expect(
            backend.touches == [
                "beginBackgroundTask(named: \"Should not happen\")", "endBackgroundTask(7 (0x7))",
                "backgroundTimeRemaining",
            ]
        )
    }

    @Test func theUnimplementedBackendRefuses() {
        let backend = UnimplementedBackend()
        withKnownIssue {
            #expect(backend.beginBackgroundTask(named: nil, expirationHandler: nil) == nil)
        }
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
