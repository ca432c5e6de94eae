import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

@MainActor
private func makeManager(
    _ simulator: BackgroundTaskSimulator,
    configure: (inout BackgroundTaskManager.Configuration) -> Void = { _ in }
) -> BackgroundTaskManager {
    var configuration = BackgroundTaskManager.Configuration()
    configure(&configuration)
    return BackgroundTaskManager(
        backend: simulator,
        configuration: configuration,
        schedule: { delay, work in simulator.schedule(after: delay, work) }
    )
}

@MainActor
struct BackgroundTaskManagerTests {
    // MARK: - Expiry

    @Test(arguments: [false, true])
    func theFirstExpiryRunsEveryCleanupInBeginOrderThenEndsThemAll(coalescing: Bool) throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.coalescesAssertions = coalescing }
        let journal = HandlerJournal()
        simulator.enterBackground()
        let tasks = try ["A", "B", "C"].map { name in
            try manager.beginTask(name) {
                journal.note(name)
                #expect(simulator.outstanding.count == (coalescing ? 1 : 3))  // ends come after all cleanups
            }
        }
        simulator.advance(by: 31)
        #expect(journal.entries == ["A", "B", "C"])
        #expect(tasks.map(\.state) == [.expired, .expired, .expired])
        #expect(manager.outstandingTasks.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
        // Only the first handler did the work; the others found nothing left.
        let handlerCalls = simulator.events.filter { if case .expirationHandlerCalled = $0 { true } else { false } }
        #expect(handlerCalls.count == 1)
    }

    @Test(arguments: [false, true])
    func aCleanupMayCallBackIntoTheManager(coalescing: Bool) throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.coalescesAssertions = coalescing }
        let journal = HandlerJournal()
        simulator.enterBackground()
        let first = try manager.beginTask("First") {
            journal.note("outstanding: \(manager.outstandingTasks.count)")
            manager.endAll()
            if let late = try? manager.beginTask("Begun in the handler") { late.end() }
        }
        let second = try manager.beginTask("Second")
        simulator.advance(by: 31)
        #expect(journal.entries == ["outstanding: 0"])
        #expect([first.state, second.state] == [.expired, .expired])
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func endAllEndsEverythingWithoutCleanups() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.coalescesAssertions = false }
        let journal = HandlerJournal()
        let tasks = try (1...3).map { try manager.beginTask("Job \($0)") { journal.note("cleanup") } }
        manager.endAll()
        #expect(tasks.map(\.state) == [.ended, .ended, .ended])
        #expect(journal.entries.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
        for task in tasks { task.end() }
        #expect(simulator.bookkeeping.badEnds == 0)
    }

    @Test func outstandingTasksListNamesCallSitesAndBeginOrder() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator)
        let first = try manager.beginTask("First")
        let line = #line - 1
        let second = try manager.beginTask(nil)
        let outstanding = manager.outstandingTasks
        #expect(outstanding.map(\.name) == ["First", nil])
        #expect(outstanding.first?.callSite.fileID == #fileID)
        #expect(outstanding.first?.callSite.line == line)
        #expect(outstanding.first?.callSite.function == "outstandingTasksListNamesCallSitesAndBeginOrder()")
        #expect(outstanding.allSatisfy { $0.age >= 0 && $0.age < 60 })
        first.end()
        #expect(manager.outstandingTasks.map(\.name) == [nil])
        second.end()
    }

    // MARK: - Limits

    @Test func aCapOfOneRefusesTheSecondTaskUntilTheFirstEnds() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.maximumOutstandingTasks = 1 }
        let first = try manager.beginTask("First")
        #expect(throws: BackgroundTaskError.limitReached(limit: 1)) { try manager.beginTask("Second") }
        first.end()
        let third = try manager.beginTask("Third")
        third.end()
        #expect(manager.configuration.maximumOutstandingTasks == 1)
    }

    @Test func theDefaultCapIsWellBelowTheSystemLimit() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.coalescesAssertions = false }
        var tasks: [SafeBackgroundTask] = []
        var refusal: BackgroundTaskError?
        for index in 1...1001 {
            do { tasks.append(try manager.beginTask("Write \(index)")) } catch { refusal = error }
        }
        #expect(tasks.count == 100)
        #expect(refusal == .limitReached(limit: 100))
        #expect(simulator.termination == nil)
        manager.endAll()
    }

    @Test func theTimeGuardRefusesWhenTooLittleTimeRemains() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) {
            $0.minimumTimeRemaining = BackgroundTaskManager.Configuration.recommendedMinimumTimeRemaining
        }
        simulator.enterBackground()
        let first = try manager.beginTask("Early")
        simulator.advance(by: 25.5)
        #expect(throws: BackgroundTaskError.insufficientTimeRemaining(remaining: 4.5, required: 5)) {
            try manager.beginTask("Late")
        }
        first.end()
        simulator.advance(by: 1)  // past the linger
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aSystemRefusalIsThrown() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let manager = makeManager(simulator)
        #expect(throws: BackgroundTaskError.notGranted) { try manager.beginTask("Refused") }
        #expect(manager.outstandingTasks.isEmpty)
    }

    // MARK: - Coalescing

    @Test func coalescedTasksShareOneAssertionEndedAfterTheLastAndTheLinger() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.linger = 2 }
        let tasks = try (1...50).map { try manager.beginTask("Write \($0)") }
        #expect(simulator.outstanding.map(\.name) == ["BackgroundTaskManager"])
        for task in tasks.dropLast() { task.end() }
        #expect(simulator.outstanding.count == 1)
        tasks.last?.end()
        simulator.advance(by: 1.5)
        #expect(simulator.outstanding.count == 1)  // lingering
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
        #expect(simulator.log.last { if case .ended = $0.event { true } else { false } }?.time == 2)
    }

    @Test func aTaskBegunDuringTheLingerReusesTheAssertion() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeManager(simulator) { $0.linger = 2 }
        try manager.beginTask("First").end()
        simulator.advance(by: 1)
        let second = try manager.beginTask("Second")
        simulator.advance(by: 5)  // the first linger timer is stale now
        #expect(simulator.outstanding.count == 1)
        second.end()
        simulator.advance(by: 5)
        try simulator.expectEveryAssertionEndedOnce()
        #expect(simulator.bookkeeping.began == 1)
    }

    @Test func aLingeringAssertionIsEndedOnExpiry() throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundTimeBudget = 8  // less than the linger
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let manager = makeManager(simulator) { $0.linger = BackgroundTaskManager.Configuration.maximumLinger }
        try manager.beginTask("Short").end()  // in the foreground: it lingers
        simulator.enterBackground()
        simulator.advance(by: 100)
        try simulator.expectEveryAssertionEndedOnce()
        // Ended by the handler, which comes 4 s before the budget is gone.
        #expect(simulator.log.last { if case .ended = $0.event { true } else { false } }?.time == 4)
    }

    @Test func aLingerThatWouldReachTheExpiryIsNotTakenAndTheAppIsSuspended() throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundTimeBudget = 8  // under the linger plus the 5 s it must leave
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let manager = makeManager(simulator) { $0.linger = BackgroundTaskManager.Configuration.maximumLinger }
        simulator.enterBackground()
        try manager.beginTask("Short").end()
        #expect(simulator.outstanding.isEmpty)  // ended at once, not kept idle into the expiry
        simulator.advance(by: 1)
        #expect(simulator.appState == .suspended)
        #expect(!simulator.log.contains { $0.event == .backgroundTimeExpired })
    }

    @Test func anExpiryBeforeTheSharedBeginReturnsEndsItOnceItReturns() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let manager = makeManager(simulator)
        let task = try manager.beginTask("Early")
        #expect(task.state == .expired)
        try simulator.expectEveryAssertionEndedOnce()
        // The next task gets a fresh assertion.
        simulator.faults = []
        let next = try manager.beginTask("Next")
        #expect(next.state == .running)
        next.end()
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }
}
