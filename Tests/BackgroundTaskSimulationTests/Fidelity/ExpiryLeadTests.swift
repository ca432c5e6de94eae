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

    /// Begun during the lead (after this stint's handlers came), a task gets no time: the system has none left to lend.
    /// The begin is refused and no handler ever comes. Apple: a begin "shortly before your app is due to be suspended"
    /// may not be granted before it is; wire-ios PR #4935: tasks begun then never had their handlers called, and the
    /// app froze holding a file lock.
    @Test func aTaskBegunDuringTheLeadIsRefusedAndGetsNoHandler() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        // Raw code keeps the app awake through the lead: its handler returns, its end comes at 29 s.
        let keeper = backend.beginBackgroundTask(named: "Keeper") {}
        simulator.schedule(after: 29) { backend.endBackgroundTask(keeper!) }
        simulator.advance(by: 27)  // the handlers came at 26 s
        let late = SafeBackgroundTask.begin("Late", backend: simulator)
        let journal = HandlerJournal()
        let raw = backend.beginBackgroundTask(named: "Late raw") { journal.note("late raw handler") }
        #expect(raw == nil)
        #expect(Array(simulator.events.suffix(2)) == [.notGranted(name: "Late"), .notGranted(name: "Late raw")])
        guard case .notGranted = late.state else {
            Issue.record("expected the late task not granted, got \(late.state)")
            return
        }
        simulator.advance(by: 10)
        #expect(simulator.termination == nil)
        #expect(simulator.appState == .suspended)
        #expect(journal.entries.isEmpty)
        #expect(simulator.assertionHistory.map(\.expirationHandlerCalledAt) == [26])
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
