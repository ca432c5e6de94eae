import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// The expiration handlers come shortly before the background time is gone (device logs:
/// `elapsed = 26` of 30 s), and the watchdog acts when it is gone.
@MainActor
struct ExpiryLeadTests {
    @Test func handlersComeFourSecondsBeforeTheBudgetIsGoneWithThatTimeLeft() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        var remainingInHandler: TimeInterval?
        simulator.enterBackground()
        slot.identifier = backend.beginBackgroundTask(named: "Upload") {
            remainingInHandler = simulator.backgroundTimeRemaining
            backend.endBackgroundTask(slot.identifier!)
        }
        simulator.advance(by: 60)
        try simulator.expectNoLeaks()
        #expect(simulator.log.first { $0.event == .backgroundTimeExpired }?.time == 26)
        #expect(remainingInHandler == 4)
        #expect(simulator.assertionHistory.first?.expirationHandlerCalledAt == 26)
    }

    @Test func withNoLeadTheHandlersComeWhenTheBudgetIsGoneAndTheWatchdogRightAfter() throws {
        var configuration = SimulatorConfiguration()
        configuration.expirationLead = 0
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        _ = backend.beginBackgroundTask(named: "Saving library") {}
        simulator.advance(by: 60)
        #expect(simulator.log.first { $0.event == .backgroundTimeExpired }?.time == 30)
        try simulator.expectTermination(.watchdogTimeout, at: 30)
    }

    @Test func anAssertionEndedDuringTheLeadIsNotKilled() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        simulator.enterBackground()
        // The handler does not end the task; a completion 2 s later does, before the budget is gone.
        slot.identifier = backend.beginBackgroundTask(named: "Sync") {
            simulator.schedule(after: 2) { DispatchQueue.main.async {} }
        }
        simulator.schedule(after: 28) {
            backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 1))
        }
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
        #expect(simulator.appState == .suspended)
        // iOS still printed its message right after the handlers.
        #expect(
            simulator.consoleMessages.contains {
                if case .taskNotEndedAfterExpirationHandlers(_, _, _, let elapsed) = $0 { elapsed == 26 } else { false }
            }
        )
    }

    @Test func aTaskBegunDuringTheLeadGetsItsHandlerWhenTheClockMoves() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        // Raw code keeps the app awake through the lead: its handler returns, its end comes at 29 s.
        let keeper = backend.beginBackgroundTask(named: "Keeper") {}
        simulator.schedule(after: 29) { backend.endBackgroundTask(keeper!) }
        simulator.advance(by: 27)  // the handlers came at 26 s
        let late = SafeBackgroundTask.begin("Late", backend: simulator)
        #expect(late.state == .running)
        simulator.advance(by: 1)
        #expect(late.state == .expired)
        simulator.advance(by: 10)
        #expect(simulator.termination == nil)
        #expect(simulator.assertionHistory.map(\.expirationHandlerCalledAt) == [26, 27])
        try simulator.expectNoLeaks()
    }

    @Test func aLeadLongerThanTheBudgetCallsTheHandlersAsSoonAsTimeRuns() throws {
        var configuration = SimulatorConfiguration()
        configuration.expirationLead = 100
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let task = SafeBackgroundTask.begin("Upload", backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 0.5)
        #expect(task.state == .expired)
        #expect(simulator.log.first { $0.event == .backgroundTimeExpired }?.time == 0)
        try simulator.expectNoLeaks()
    }

    @Test(arguments: [TimeInterval.nan, -3])
    func aNaNOrNegativeLeadCountsAsNone(_ lead: TimeInterval) throws {
        var configuration = SimulatorConfiguration()
        configuration.expirationLead = lead
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let task = SafeBackgroundTask.begin("Upload", backend: simulator)
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(task.state == .expired)
        #expect(simulator.log.first { $0.event == .backgroundTimeExpired }?.time == 30)
        try simulator.expectNoLeaks()
    }
}
