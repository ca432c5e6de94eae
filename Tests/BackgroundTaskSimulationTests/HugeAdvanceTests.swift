import BackgroundTaskKitTesting
import Testing

/// `advance(by:)` costs what happens in the time, not the length of the time: a huge duration returns,
/// and one that periodic work would fill for hours stops with a misuse saying where and why.
@MainActor
struct HugeAdvanceTests {
    @Test(.timeLimit(.minutes(1)))
    func aHugeAdvanceWithAManagerHoldingATaskInTheForegroundStopsAndSaysWhere() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        let task = try manager.beginTask("Upload")
        simulator.advance(by: 1e19)
        let limit = BackgroundTaskSimulator.maximumTimerFiringsPerAdvance
        let stops = simulator.log.filter { $0.event == .misuse(.timerFiringLimitReached(limit: limit)) }
        // The shared assertion is handed over every 20 s: the 100,000th handover is at 2,000,000 s.
        #expect(stops.map(\.time) == [Double(limit) * 20])
        #expect(simulator.now == Double(limit) * 20)
        #expect(simulator.termination == nil)
        #expect(simulator.outstanding.count == 1)
        // The misuse says what to do.
        #expect(SimulatorMisuse.timerFiringLimitReached(limit: limit).description.contains("advance by less"))
        task.end()
        simulator.advance(by: 1)
        #expect(simulator.outstanding.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aHugeAdvanceWithNothingDueReturnsAtOnce() {
        let simulator = BackgroundTaskSimulator()
        simulator.advance(by: 1e300)
        #expect(simulator.now == 1e300)
        #expect(simulator.log.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aHugeAdvanceAfterTheTasksEndedReachesItsTarget() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        try manager.beginTask("Upload").end()
        simulator.advance(by: 1e19)
        #expect(simulator.now == 1e19)
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectNoLeaks()
    }
}
