import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Regression tests for what the randomized checker found in the simulator (see
/// `Documentation/PromiseChecker.md`), each placed deterministically.
@MainActor
struct CheckerFindingsTests {
    /// A begin on the main thread under both faults used to wait for a handler that waited for it.
    @Test(arguments: ["safe", "manager-coalesced"])
    func aBeginWhoseHandlerRunsOffTheMainThreadReturnsAtOnceAndEndsCleanly(_ face: String) throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns, .handlerOffMainActor])
        var cleanedUp = false
        let manager = BackgroundTaskManager(backend: simulator)
        let start = ContinuousClock.now
        let task =
            face == "safe"
            ? SafeBackgroundTask.begin("Early", backend: simulator, onExpiration: { cleanedUp = true })
            : try manager.beginTask("Early", onExpiration: { cleanedUp = true })
        #expect(ContinuousClock.now - start < .milliseconds(500))
        simulator.faults = []  // the begin's faults still apply to its handler
        simulator.advance(by: 10)
        #expect(cleanedUp)
        #expect(task.state == .expired)
        #expect(simulator.termination == nil)
        #expect(
            simulator.events.contains(
                .expirationHandlerCalled(BackgroundTaskIdentifier(rawValue: 1), onMainActor: false)))
        try simulator.expectNoLeaks()
    }

    /// The time a cleanup spends for a handler running off the main thread is handler time: it does
    /// not carry the clock through the end of the budget while the handler still holds its task.
    @Test func aCleanupsTimeForAnOffMainHandlerIsHandlerTime() throws {
        let simulator = BackgroundTaskSimulator()
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let keeper = try #require(backend.beginBackgroundTask(named: "Keeper") {})  // awake through the lead
        simulator.advance(by: 29.95)  // the handlers came at 26 s; 0.05 s of budget left
        simulator.faults = [.handlerBeforeBeginReturns, .handlerOffMainActor]
        let late = SafeBackgroundTask.begin("Late", backend: simulator, onExpiration: { simulator.spend(0.1) })
        backend.endBackgroundTask(keeper)
        simulator.advance(by: 1)  // the cleanup's 0.1 s passes the budget's end inside the handler
        #expect(late.state == .expired)
        #expect(simulator.termination == nil)
        try simulator.expectNoLeaks()
    }

    /// A renewal timer that fires inside `advance(by:)` and starts a handler off the main thread: the
    /// clock waits for that handler before it reaches the handler's deadline.
    @Test func aHandlerStartedByATimerInsideAdvanceFinishesBeforeTheClockMovesOn() throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.sharedAssertionRenewalAge = 6
        let manager = BackgroundTaskManager(
            backend: simulator,
            configuration: configuration,
            schedule: { delay, work in simulator.schedule(after: delay, work) }
        )
        let task = try manager.beginTask("Long")
        simulator.faults = [.handlerBeforeBeginReturns, .handlerOffMainActor]
        simulator.advance(by: 15)  // the renewal at 6 s begins a fresh assertion whose handler comes at once
        #expect(simulator.termination == nil)
        #expect(task.state == .expired)
        try simulator.expectNoLeaks()
    }

    /// An end held by `.holdOffMainCalls` lands before the watchdog checks a handler's deadline.
    @Test func aHeldEndLandsBeforeTheWatchdogChecksTheDeadline() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.ends)])
        let backend: any BackgroundTaskBackend = simulator
        simulator.faults.insert(.handlerBeforeBeginReturns)
        let identifier = try #require(backend.beginBackgroundTask(named: "Handled at once") {})  // 5 s to end it
        let thread = Thread { backend.endBackgroundTask(identifier) }
        thread.start()
        try await simulator.waitForHeldCalls(1)
        simulator.advance(by: 10)  // the deadline at 5 s: the held end lands first
        #expect(simulator.termination == nil)
        #expect(simulator.outstanding.isEmpty)
    }

    /// A begin that lands after the handlers of an expiry (held off the main thread until then) is refused: no time is
    /// left to lend, and nothing is left held past the budget.
    @Test func aBeginLandingAfterTheHandlersIsRefused() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.holdOffMainCalls(.begins)])
        simulator.enterBackground()
        let keeper = SafeBackgroundTask.begin("Keeper", backend: simulator)  // main thread: not held
        let late = Locked<SafeBackgroundTask?>(nil)
        Thread { late.withLock { $0 = SafeBackgroundTask.begin("Late", backend: simulator) } }.start()
        try await simulator.waitForHeldCalls(1)
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
        #expect(keeper.state == .expired)
        let lateTask = try await waitForValue(late)
        guard case .notGranted = lateTask.state else {
            Issue.record("expected the late task not granted, got \(lateTask.state)")
            return
        }
        try simulator.expectNoLeaks()
    }

    /// A handler the simulator sends to the main thread from another thread runs before the clock
    /// moves, even when the test's main thread never yields to the main queue.
    @Test func aHandlerSentToTheMainThreadRunsBeforeTheClockMoves() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let box = Locked<SafeBackgroundTask?>(nil)
        Thread { box.withLock { $0 = SafeBackgroundTask.begin("From a queue", backend: simulator) } }.start()
        let deadline = Date(timeIntervalSinceNow: 5)
        while box.withLock({ $0 }) == nil, Date() < deadline { usleep(100) }  // blocks the main thread
        let start = ContinuousClock.now
        simulator.advance(by: 10)  // runs the handler first, then moves the clock past its deadline
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(simulator.termination == nil)
        #expect(box.withLock { $0?.state } == .expired)
        try simulator.expectNoLeaks()
    }
}

/// Waits (real time, at most 5 s) until `box` holds a value.
@MainActor
private func waitForValue<Value: Sendable>(_ box: Locked<Value?>) async throws -> Value {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while box.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(1))
    }
    return try #require(box.withLock { $0 })
}

extension CheckerFindingsTests {
    /// A task begun on a queue whose handler comes before its begin returns, called on that queue.
    @Test(arguments: [false, true], [false, true])
    func aTaskBegunOffTheMainThreadWhoseHandlerComesFirstIsEnded(holdingEnds: Bool, insideWith: Bool) async throws {
        let simulator = BackgroundTaskSimulator(
            faults: holdingEnds
                ? [.handlerBeforeBeginReturns, .handlerOffMainActor, .holdOffMainCalls(.ends)]
                : [.handlerBeforeBeginReturns, .handlerOffMainActor])
        simulator.enterBackground()
        let begun = FrozenThreadTests.ThreadResult { [simulator] in
            ScopedBoxForTests(ScopedBackgroundTask("Queue", backend: simulator))
        }
        #expect(await waitUntil("the begin returns") { begun.value != nil || !simulator.parkedThreadIDs.isEmpty })
        if insideWith {
            withBackgroundTask("With", backend: simulator) { simulator.advance(by: 6) }
        } else {
            simulator.advance(by: 6)
        }
        #expect(simulator.termination == nil)
        #expect(simulator.outstanding.isEmpty)
    }
}

/// A scoped task any thread may hold.
final class ScopedBoxForTests: @unchecked Sendable {  // one thread at a time uses it
    var task: ScopedBackgroundTask?

    init(_ task: consuming ScopedBackgroundTask) {
        self.task = consume task
    }
}

extension CheckerFindingsTests {
    /// A thread of the app's finishes a begin whose handler it sent to the main thread just as the
    /// simulator asks whether the app's threads are done: the handler runs before the clock moves
    /// (it used to wait while the clock reached the handler's deadline).
    @Test func aHandlerSentByAThreadThatJustFinishedRunsBeforeTheClockMoves() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let backend: any BackgroundTaskBackend = simulator
        simulator.enterBackground()
        let keeper = try #require(backend.beginBackgroundTask(named: "Keeper", expirationHandler: nil))
        let late = Locked<SafeBackgroundTask?>(nil)
        simulator.appThreadsSettled = {
            guard late.value == nil else { return true }
            // The thread begins (its handler goes to the main thread) and finishes right now.
            let finished = DispatchSemaphore(value: 0)
            Thread {
                late.withLock { $0 = SafeBackgroundTask.begin("Late", backend: simulator) }
                finished.signal()
            }.start()
            finished.wait()
            return true
        }
        simulator.advance(by: 10)
        backend.endBackgroundTask(keeper)
        #expect(simulator.termination == nil)
        #expect(late.value?.state == .expired)
    }
}
