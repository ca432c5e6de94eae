import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// The library's faces, as ``FaceDriver`` starts them.
let faces = ["safe", "scoped", "closure", "manager", "manager-coalesced"]

@MainActor
struct FaceFaultTests {
    // MARK: - Faults the simulator injects

    @Test(arguments: faces)
    func aHandlerThatRunsBeforeBeginReturnsStillEndsTheTaskExactlyOnce(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let journal = HandlerJournal()
        simulator.enterBackground()
        let task = await FaceDriver(face, simulator).start("Early") {
            journal.note("cleanup")
        }
        simulator.advance(by: 10)
        await task.end()
        await drainMainActor()
        try simulator.expectEveryAssertionEndedOnce()
        #expect(journal.entries == ["cleanup"])
    }

    @Test(arguments: faces)
    func aHandlerCalledOffTheMainActorEndsTheTaskAndRunsTheCleanupOnTheMainActor(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerOffMainActor])
        let journal = HandlerJournal()
        simulator.enterBackground()
        let task = await FaceDriver(face, simulator).start("Off main") {
            journal.note("cleanup")
        }
        simulator.advance(by: 31)
        try simulator.expectEveryAssertionEndedOnce()
        await drainMainActor()
        #expect(journal.entries == ["cleanup"])
        #expect(journal.ranOnMainActor == [true])
        await task.end()
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test(arguments: faces)
    func aHandlerCalledTwiceRunsTheCleanupOnceAndEndsOnce(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerTwice])
        let journal = HandlerJournal()
        simulator.enterBackground()
        let task = await FaceDriver(face, simulator).start("Twice") {
            journal.note("cleanup")
        }
        simulator.advance(by: 31)
        await task.end()
        try simulator.expectEveryAssertionEndedOnce()
        #expect(journal.entries == ["cleanup"])
        let calls = simulator.events.filter { if case .expirationHandlerCalled = $0 { true } else { false } }
        #expect(calls.count == 2)
    }

    @Test(arguments: faces)
    func aRefusedBeginRunsNoCleanupAndEndsNothing(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: true)])
        let journal = HandlerJournal()
        simulator.enterBackground()
        let task = await FaceDriver(face, simulator).start("Refused") {
            journal.note("cleanup")
        }
        simulator.advance(by: 31)
        await task.end()
        await task.end()
        #expect(journal.entries.isEmpty)
        #expect(simulator.bookkeeping.ended == 0)
        #expect(simulator.bookkeeping.badEnds == 0)
        try simulator.expectNoLeaks()
    }

    @Test(arguments: ["safe", "scoped", "closure", "manager"])
    func aTaskBegunWithLittleTimeLeftAndNoHandlerMustStillBeEndedInTime(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.noHandlerWhenLittleTimeLeft])
        let starter = FaceDriver(face, simulator)
        simulator.enterBackground()
        let keepAwake = await starter.start("Keep awake")
        simulator.advance(by: 25.5)
        let late = await starter.start("Late")  // 4.5 s left: the system gives it no handler
        simulator.advance(by: 2)
        await late.end()  // ended in time: fine
        simulator.advance(by: 10)
        await keepAwake.end()
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test(arguments: ["safe", "scoped", "closure"])
    func aStandaloneTaskWithNoHandlerThatOutlivesTheBudgetIsFatal(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator(faults: [.noHandlerWhenLittleTimeLeft])
        let starter = FaceDriver(face, simulator)
        simulator.enterBackground()
        let keepAwake = await starter.start("Keep awake")
        simulator.advance(by: 25.5)
        let late = await starter.start("Late")  // 4.5 s left: no handler
        simulator.advance(by: 10)
        // The handlers come at 26 s and cannot reach it; the watchdog acts when the budget is gone.
        let termination = try simulator.expectTermination(.watchdogTimeout, at: 30)
        #expect(termination.heldAssertions.map(\.name) == ["Late"])
        await late.end()
        await keepAwake.end()
    }

    @Test func aManagerEndsEvenTheTasksTheSystemGaveNoHandler() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.noHandlerWhenLittleTimeLeft])
        let starter = FaceDriver("manager", simulator)
        simulator.enterBackground()
        let keepAwake = await starter.start("Keep awake")
        simulator.advance(by: 27)
        let late = await starter.start("Late")
        simulator.advance(by: 10)  // the first handler expires every task of the manager
        try simulator.expectEveryAssertionEndedOnce()
        await late.end()
        await keepAwake.end()
    }

    // MARK: - Misuse and re-entrancy

    @Test(arguments: faces)
    func endingTwiceEndsOnce(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator()
        let task = await FaceDriver(face, simulator).start("Twice")
        await task.end()
        await task.end()
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test(arguments: faces)
    func aCleanupThatSpendsTimeEndsTheTaskAfterwards(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let task = await FaceDriver(face, simulator).start("Slow cleanup") {
            simulator.spend(2)
        }
        simulator.advance(by: 40)
        try simulator.expectEveryAssertionEndedOnce()
        let end = simulator.log.first { if case .ended = $0.event { true } else { false } }
        #expect(end?.time == 28)  // the handler comes at 26 s, 4 s before the budget is gone
        await task.end()
    }

    @Test(arguments: faces)
    func aCleanupThatBeginsAndEndsAnotherTaskDoesNotDeadlock(_ face: String) async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let inner = SafeTaskBox()
        let task = await FaceDriver(face, simulator).start("Outer") {
            let task = SafeBackgroundTask.begin("Begun in the handler", backend: simulator)
            task.end()
            inner.task = task
        }
        simulator.advance(by: 40)
        try simulator.expectEveryAssertionEndedOnce()
        // Begun while the system expires the app's tasks: no time is left to lend, so it is refused (and ends as a
        // no-op), without a deadlock.
        guard case .notGranted = inner.task?.state else {
            Issue.record("expected the task begun in the handler not granted: \(String(describing: inner.task?.state))")
            return
        }
        await task.end()
    }
}
