import BackgroundTaskKitTesting
import Testing

@MainActor
struct SimulatorIntegrationTests {
    @Test func theTerminationRecordNamesTheCallSitesOfTheAssertionsStillHeld() throws {
        let simulator = BackgroundTaskSimulator(faults: [.noHandlerWhenLittleTimeLeft])
        simulator.enterBackground()
        let keepAwake = SafeBackgroundTask.begin("Keep awake", backend: simulator)
        simulator.advance(by: 25.5)
        // With 4.5 s left the system gives this task no handler, so nothing can end it in time: the
        // handlers come at 26 s, and the watchdog when the budget is gone, at 30 s.
        let late = SafeBackgroundTask.begin(
            "Late upload",
            backend: simulator,
            fileID: "App/Uploader.swift",
            line: 88,
            function: "uploadLater()"
        )
        simulator.advance(by: 10)
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(
            termination.heldAssertions.map(\.callSite)
                == [BackgroundTaskCallSite(fileID: "App/Uploader.swift", line: 88, function: "uploadLater()")]
        )
        #expect(termination.description.contains("begun at App/Uploader.swift:88 (uploadLater())"))
        late.end()
        keepAwake.end()
    }

    @Test func rawCallsLeaveTheCallSiteUnknown() {
        let simulator = BackgroundTaskSimulator()
        _ = simulator.beginBackgroundTask(named: "Raw", expirationHandler: nil)
        #expect(simulator.outstanding.map(\.callSite) == [nil])
        #expect(simulator.outstanding.first?.description == "1 (\"Raw\")")
    }
}
