import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

@MainActor
struct SimulatorFaultTests {
    // MARK: - Not granted

    @Test func aRefusedBeginReturnsNilAndCallsNoHandler() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let backend: any BackgroundTaskBackend = simulator
        let journal = HandlerJournal()
        #expect(backend.beginBackgroundTask(named: "Refused") { journal.note("handler") } == nil)
        simulator.advance(by: 10)
        #expect(journal.entries.isEmpty)
        #expect(simulator.events == [.notGranted(name: "Refused")])
    }

    @Test func aRefusedBeginMayCallItsHandlerLaterOnTheMainActor() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: true)])
        let backend: any BackgroundTaskBackend = simulator
        let journal = HandlerJournal()
        #expect(backend.beginBackgroundTask(named: "Refused") { journal.note("handler") } == nil)
        #expect(journal.entries.isEmpty)  // not before begin returns
        simulator.advance(by: 0)
        #expect(journal.entries == ["handler"])
        #expect(journal.ranOnMainActor == [true])
        #expect(
            simulator.events == [
                .notGranted(name: "Refused"), .expirationHandlerCalled(nil, onMainActor: true),
                .expirationHandlerReturned(nil),
            ]
        )
    }

    @Test func removingTheFaultGrantsAgain() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        #expect(simulator.beginBackgroundTask(named: "A", expirationHandler: nil) == nil)
        simulator.faults.remove(.notGranted(callingHandler: false))
        #expect(simulator.beginBackgroundTask(named: "B", expirationHandler: nil) == id(1))
    }

    // MARK: - Handler before begin returns

    @Test func theHandlerCanRunBeforeBeginHasReturnedTheIdentifier() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        let journal = HandlerJournal()
        slot.identifier = backend.beginBackgroundTask(named: "Early") {
            journal.note(slot.identifier == nil ? "no identifier yet" : "has identifier")
            if let identifier = slot.identifier { backend.endBackgroundTask(identifier) }
        }
        #expect(journal.entries == ["no identifier yet"])
        #expect(
            simulator.events == [
                .began(id(1), name: "Early"), .expirationHandlerCalled(id(1), onMainActor: true),
                .expirationHandlerReturned(id(1)),
            ]
        )
        // The naive handler could not end it; iOS kills the app once the handler time is over.
        simulator.advance(by: 10)
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 5)
        #expect(termination.reason == .expiredTaskNotEnded)
    }

    @Test func codeThatChecksForAnEarlyHandlerAfterBeginSurvivesIt() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        let expired = Slot()
        slot.identifier = backend.beginBackgroundTask(named: "Early") {
            expired.identifier = BackgroundTaskIdentifier(rawValue: -1)  // marks "expired"
            if let identifier = slot.identifier { backend.endBackgroundTask(identifier) }
        }
        if expired.identifier != nil, let identifier = slot.identifier { backend.endBackgroundTask(identifier) }
        simulator.advance(by: 10)
        try simulator.expectNoLeaks()
    }

    @Test func anEarlyHandlerForATaskBegunOffTheMainActorStillRunsOnTheMainActor() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let journal = HandlerJournal()
        let identifier = await Task.detached {
            simulator.beginBackgroundTask(named: "Off main") { journal.note("handler") }
        }.value
        #expect(journal.ranOnMainActor == [true])
        simulator.endBackgroundTask(try #require(identifier))
        try simulator.expectNoLeaks()
    }

    // MARK: - Handler off the main actor

    @Test func handlersCanBeCalledOffTheMainActor() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerOffMainActor])
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        let ranOnMainActor = Locked<Bool?>(nil)
        simulator.enterBackground()
        slot.identifier = backend.beginBackgroundTask(named: "Off main") {
            ranOnMainActor.withLock { $0 = MainActorContext.isCurrent }
        }
        simulator.advance(by: 30)
        #expect(ranOnMainActor.value == false)
        #expect(simulator.events.contains(.expirationHandlerCalled(id(1), onMainActor: false)))
        // The handler did not end the task.
        try simulator.expectTermination(.watchdogTimeout, at: 30)
    }

    // MARK: - Handler twice

    @Test func handlersCanBeCalledTwice() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerTwice])
        let backend: any BackgroundTaskBackend = simulator
        let slot = Slot()
        let journal = HandlerJournal()
        simulator.enterBackground()
        slot.identifier = backend.beginBackgroundTask(named: "Twice") {
            journal.note("handler")
            if let identifier = slot.identifier { backend.endBackgroundTask(identifier) }
        }
        simulator.advance(by: 30)
        #expect(journal.entries == ["handler", "handler"])
        // A handler that does not guard against a second call ends twice.
        #expect(simulator.consoleMessages == [.cannotEndTask(id(1))])
        try simulator.expectNoLeaks()
    }

    // MARK: - No handler with little time left

    @Test func aTaskBegunWithUnderFiveSecondsLeftGetsNoHandler() throws {
        let simulator = BackgroundTaskSimulator(faults: [.noHandlerWhenLittleTimeLeft])
        let backend: any BackgroundTaskBackend = simulator
        let first = Slot()
        let late = Slot()
        let journal = HandlerJournal()
        simulator.enterBackground()
        first.identifier = backend.beginBackgroundTask(named: "First") {
            journal.note("First")
            backend.endBackgroundTask(first.identifier!)
        }
        simulator.advance(by: 25.5)  // 4.5 s left, the handlers due at 26 s
        late.identifier = backend.beginBackgroundTask(named: "Late") {
            journal.note("Late")
            backend.endBackgroundTask(late.identifier!)
        }
        simulator.advance(by: 10)
        #expect(journal.entries == ["First"])
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(termination.heldAssertions.map(\.name) == ["Late"])
    }

    @Test func withoutTheFaultALateTaskStillGetsItsHandler() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        let first = Slot()
        let late = Slot()
        simulator.enterBackground()
        first.identifier = backend.beginBackgroundTask(named: "First") { backend.endBackgroundTask(first.identifier!) }
        simulator.advance(by: 26)
        late.identifier = backend.beginBackgroundTask(named: "Late") { backend.endBackgroundTask(late.identifier!) }
        simulator.advance(by: 10)
        try simulator.expectNoLeaks()
    }
}
