import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

@MainActor
struct SimulatorPolicyTests {
    // MARK: - The clock and the budget

    @Test func backgroundTimeDoesNotRunInTheForeground() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        _ = backend.beginBackgroundTask(named: "Long foreground work", expirationHandler: nil)
        simulator.advance(by: 300)
        #expect(simulator.termination == nil)
        #expect(simulator.backgroundTimeRemaining == nil)
        simulator.enterBackground()
        #expect(simulator.backgroundTimeRemaining == 30)
    }

    @Test func backgroundTimeRunsOnlyWhileAnAssertionIsHeld() {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        // Nothing held yet: begun right after entering, the full budget is still there.
        let first = backend.beginBackgroundTask(named: "First", expirationHandler: nil)
        simulator.advance(by: 10)
        #expect(simulator.backgroundTimeRemaining == 20)
        backend.endBackgroundTask(first!)
        #expect(simulator.backgroundTimeRemaining == 20)
        simulator.advance(by: 5)
        // Idle in the background: suspended, not counting down.
        #expect(simulator.appState == .suspended)
        simulator.resumeInBackground()
        #expect(simulator.backgroundTimeRemaining == 30)
    }

    @Test func aHeldAssertionExpiresWhenTheBudgetRunsOut() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        _ = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)
        simulator.advance(by: 29)
        #expect(simulator.termination == nil)
        #expect(simulator.backgroundTimeRemaining == 1)
        simulator.advance(by: 1)
        try simulator.expectTermination(.watchdogTimeout, at: 30)
    }

    @Test func theBudgetIsAppWideNotPerTask() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        _ = backend.beginBackgroundTask(named: "A", expirationHandler: nil)
        simulator.advance(by: 20)
        _ = backend.beginBackgroundTask(named: "B", expirationHandler: nil)
        simulator.advance(by: 20)
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(termination.heldAssertions.map(\.name) == ["A", "B"])
    }

    @Test func returningToTheForegroundStopsTheClockAndLeavingAgainGrantsAFreshBudget() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let identifier = backend.beginBackgroundTask(named: "Sync", expirationHandler: nil)
        simulator.advance(by: 25)
        simulator.enterForeground()
        simulator.advance(by: 100)
        simulator.enterBackground()
        #expect(simulator.backgroundTimeRemaining == 30)
        simulator.advance(by: 29)
        backend.endBackgroundTask(identifier!)
        simulator.advance(by: 10)
        try simulator.expectNoLeaks()
        #expect(simulator.appState == .suspended)
    }

    @Test func anIdleAppInTheBackgroundIsSuspendedWhenTheClockMoves() {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        #expect(simulator.appState == .background)
        simulator.advance(by: 0.1)
        #expect(simulator.events == [.appStateChanged(.background), .appStateChanged(.suspended)])
        #expect(simulator.backgroundTimeRemaining == 0)
    }

    // MARK: - Expiry

    @Test func expiryCallsEveryHandlerInBeginOrderOnTheMainActorThenSuspends() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let journal = HandlerJournal()
        let slots = [Slot(), Slot(), Slot()]
        simulator.enterBackground()
        for (index, slot) in slots.enumerated() {
            slot.identifier = backend.beginBackgroundTask(named: "Task \(index)") {
                journal.note("Task \(index)")
                backend.endBackgroundTask(slot.identifier!)
            }
        }
        simulator.advance(by: 60)
        try simulator.expectNoLeaks()
        #expect(journal.entries == ["Task 0", "Task 1", "Task 2"])
        #expect(journal.ranOnMainActor == [true, true, true])
        #expect(simulator.appState == .suspended)
        // The handlers come 4 s before the budget is gone; with nothing held the app suspends then.
        #expect(simulator.log.last == SimulatorLogEntry(time: 26, event: .appStateChanged(.suspended)))
    }

    @Test func aHandlerThatEndsAnotherTaskSparesThatTasksHandler() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let journal = HandlerJournal()
        let first = Slot()
        let second = Slot()
        simulator.enterBackground()
        first.identifier = backend.beginBackgroundTask(named: "First") {
            journal.note("First")
            backend.endBackgroundTask(first.identifier!)
            backend.endBackgroundTask(second.identifier!)
        }
        second.identifier = backend.beginBackgroundTask(named: "Second") { journal.note("Second") }
        simulator.advance(by: 30)
        try simulator.expectNoLeaks()
        #expect(journal.entries == ["First"])
    }

    @Test func anAssertionStillHeldAfterTheHandlersTerminatesTheAppWithIOSsMessage() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        simulator.advance(by: 0)
        _ = backend.beginBackgroundTask(named: "Saving library") {}  // empty handler
        simulator.advance(by: 31)
        // The handlers come at 26 s; iOS prints its message right after them, and the watchdog kills
        // the app when the budget is gone with the assertion still held.
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(termination.reason == .assertionsHeldAfterExpiration)
        #expect(
            simulator.log.suffix(5) == [
                SimulatorLogEntry(time: 26, event: .backgroundTimeExpired),
                SimulatorLogEntry(time: 26, event: .expirationHandlerCalled(id(1), onMainActor: true)),
                SimulatorLogEntry(time: 26, event: .expirationHandlerReturned(id(1))),
                SimulatorLogEntry(
                    time: 26,
                    event: .console(
                        .taskNotEndedAfterExpirationHandlers(id(1), name: "Saving library", createdAt: 0, elapsed: 26))
                ),
                SimulatorLogEntry(time: 30, event: .terminated(termination)),
            ]
        )
        #expect(
            simulator.consoleMessages.last?.text
                == "Background task still not ended after expiration handlers were called: <UIBackgroundTaskInfo>: "
                + "taskID = 1, taskName = Saving library, creationTime = 0 (elapsed = 26). "
                + "This app will likely be terminated by the system. "
                + "Call UIApplication.endBackgroundTask(_:) to avoid this."
        )
    }

    @Test func handlersThatOverrunTheHandlerBudgetAreKilledAtTheDeadline() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let first = Slot()
        let second = Slot()
        simulator.enterBackground()
        first.identifier = backend.beginBackgroundTask(named: "Close database") {
            simulator.spend(3)
            backend.endBackgroundTask(first.identifier!)
        }
        second.identifier = backend.beginBackgroundTask(named: "Flush log") {
            simulator.spend(3)  // 6 s in total: over the 5 s budget
            backend.endBackgroundTask(second.identifier!)
        }
        simulator.advance(by: 60)
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 31)  // handlers at 26 s + 5 s
        #expect(termination.reason == .expirationHandlersTookTooLong)
        #expect(termination.heldAssertions.map(\.name) == ["Flush log"])
    }

    @Test func handlersWithinTheHandlerBudgetAreFine() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        simulator.enterBackground()
        slot.identifier = backend.beginBackgroundTask(named: "Checkpoint") {
            simulator.spend(5)
            backend.endBackgroundTask(slot.identifier!)
        }
        simulator.advance(by: 60)
        try simulator.expectNoLeaks()
        #expect(simulator.log.last?.time == 31)  // handlers at 26 s + 5 s
    }

    // MARK: - The assertion limit

    @Test func oneThousandOutstandingAssertionsAreAllowed() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let identifiers = (1...1000).compactMap { _ in
            backend.beginBackgroundTask(named: "Write", expirationHandler: nil)
        }
        #expect(identifiers.count == 1000)
        #expect(simulator.termination == nil)
        identifiers.forEach(backend.endBackgroundTask)
        try simulator.expectNoLeaks()
    }

    @Test func theThousandAndFirstOutstandingAssertionTerminatesTheAppWithBadAssert() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.advance(by: 3)
        for _ in 1...1001 {
            _ = backend.beginBackgroundTask(named: "Write", expirationHandler: nil)
        }
        let termination = try simulator.expectTermination(.tooManyAssertions, at: 3)
        #expect(termination.reason == .assertionLimitExceeded)
        #expect(termination.heldAssertions.count == 1001)
        #expect(termination.code.hexString == "0xbada5e47")
    }

    // MARK: - Console messages

    @Test func endingTwiceLogsIOSsMessageAndDoesNotCrash() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let identifier = try #require(backend.beginBackgroundTask(named: "Once", expirationHandler: nil))
        backend.endBackgroundTask(identifier)
        backend.endBackgroundTask(identifier)
        backend.endBackgroundTask(BackgroundTaskIdentifier(rawValue: 26))
        #expect(
            simulator.events == [
                .began(id(1), name: "Once"), .ended(id(1)), .console(.cannotEndTask(id(1))),
                .console(.cannotEndTask(id(26))),
            ]
        )
        #expect(
            simulator.consoleMessages.last?.text
                == "Can't end BackgroundTask: no background task exists with identifier 26 (0x1a), "
                + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
        )
        try simulator.expectNoLeaks()
    }

    @Test func aTaskOlderThanThirtySecondsIsReportedOnceEvenInTheForeground() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.advance(by: 2)
        _ = backend.beginBackgroundTask(named: "Saving library", expirationHandler: nil)
        simulator.advance(by: 29.5)
        #expect(simulator.consoleMessages.isEmpty)
        simulator.advance(by: 60)
        let warning = ConsoleMessage.taskCreatedTooLongAgo(id(1), name: "Saving library", warningAge: 30)
        #expect(simulator.log.filter { $0.event == .console(warning) }.map(\.time) == [32])
        #expect(
            warning.text
                == "Background Task 1 (\"Saving library\"), was created over 30 seconds ago. "
                + "In applications running in the background, this creates a risk of termination. "
                + "Remember to call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this."
        )
    }

    @Test func aTaskBegunInTheForegroundWarnsBeforeItExpiresInTheBackground() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        _ = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)
        simulator.advance(by: 20)
        simulator.enterBackground()
        simulator.advance(by: 60)
        let warning = SimulatorLogEntry(
            time: 30,
            event: .console(.taskCreatedTooLongAgo(id(1), name: "Upload", warningAge: 30))
        )
        #expect(simulator.log.contains(warning))
        try simulator.expectTermination(.watchdogTimeout, at: 50)
    }

    // MARK: - Misuse

    @Test func impossibleDrivingIsRecordedNotTrapped() {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.advance(by: -1)
        simulator.advance(by: .nan)
        simulator.resumeInBackground()
        simulator.enterBackground()
        simulator.advance(by: 1)
        #expect(backend.beginBackgroundTask(named: "While suspended", expirationHandler: nil) == nil)
        simulator.enterBackground()
        #expect(
            simulator.events == [
                .misuse(.invalidDuration), .misuse(.invalidDuration),
                .misuse(.invalidTransition(from: .foreground, to: .background)),
                .appStateChanged(.background), .appStateChanged(.suspended),
                .misuse(.callWhileSuspended),
                .misuse(.invalidTransition(from: .suspended, to: .background)),
            ]
        )
    }

    @Test func callsAfterTerminationAreIgnored() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        for _ in 1...1001 { _ = backend.beginBackgroundTask(named: nil, expirationHandler: nil) }
        let eventCount = simulator.events.count
        #expect(backend.beginBackgroundTask(named: "Late", expirationHandler: nil) == nil)
        backend.endBackgroundTask(id(1))
        simulator.advance(by: 100)
        #expect(simulator.events.count == eventCount)
        #expect(simulator.appState == .terminated)
    }
}
