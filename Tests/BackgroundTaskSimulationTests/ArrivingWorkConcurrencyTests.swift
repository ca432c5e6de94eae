import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

/// Work that other threads send while `advance(by:)` runs is taken in order, up to a limit: a burst below it runs
/// entirely before the clock moves; work that keeps coming stops the advance where it is, with a misuse that says what
/// kept coming. Each chain below sends its next piece from another thread as the last one runs, so the counts are
/// exact. Run again under the thread sanitizer by CI (`--filter ConcurrencyTests`).
@MainActor
struct ArrivingWorkConcurrencyTests {
    // MARK: - Work that keeps arriving

    @Test func handlersHoppedToTheMainActorForEverStopTheAdvanceAtTheLimit() {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        simulator.arrivalLimit = 50
        simulator.arrivalRealTimeLimit = 60
        let chain = BeginChain(simulator)
        chain.beginOnAnotherThread()  // its handler is sent to the main actor; it begins the next one there
        simulator.advance(by: 10)
        #expect(simulator.now == 0)
        #expect(handlerCalls(simulator) == 50)
        let stop = SimulatorLogEntry(
            time: 0, event: .misuse(.arrivingWorkLimitReached(taken: 50, work: .mainActorWork)))
        #expect(simulator.log.last == stop)
        // The next advance takes the next 50, from where the last one stopped.
        simulator.advance(by: 10)
        #expect(simulator.now == 0)
        #expect(handlerCalls(simulator) == 100)
        #expect(simulator.log.filter { $0 == stop }.count == 2)
        // Once the chain stops, time moves.
        chain.stop()
        simulator.advance(by: 10)
        #expect(simulator.now == 10)
        #expect(handlerCalls(simulator) == 101)
        #expect(simulator.log.filter { $0 == stop }.count == 2)
        #expect(simulator.outstanding.isEmpty)
        #expect(simulator.termination == nil)
    }

    @Test func handlersOfRefusedBeginsForEverStopTheAdvanceAtTheLimit() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: true)])
        simulator.arrivalLimit = 30
        simulator.arrivalRealTimeLimit = 60
        let chain = BeginChain(simulator)
        chain.beginOnAnotherThread()  // refused: its handler comes when the clock moves, and begins the next one
        simulator.advance(by: 10)
        #expect(simulator.now == 0)
        #expect(handlerCalls(simulator) == 30)
        #expect(simulator.events.last == .misuse(.arrivingWorkLimitReached(taken: 30, work: .expirationHandlers)))
        chain.stop()
        simulator.advance(by: 10)
        #expect(simulator.now == 10)
        #expect(handlerCalls(simulator) == 31)
    }

    @Test func heldCallsThatKeepComingToTheGateStopTheAdvanceAtTheLimit() throws {
        let simulator = BackgroundTaskSimulator(
            faults: [.holdOffMainCalls(.begins), .handlerBeforeBeginReturns, .handlerOffMainActor])
        simulator.arrivalLimit = 20
        simulator.arrivalRealTimeLimit = 60
        simulator.enterBackground()
        // Its handler runs beside the begin and does not end it: the watchdog looks at its deadline, 5 s on.
        let begun = simulator.beginBackgroundTask(named: "Keeper", expirationHandler: {})
        let keeper = try #require(begun)
        let chain = BeginChain(simulator)
        chain.beginOnAnotherThread()  // held; when it lands, its handler makes the next held begin
        #expect(simulator.heldCallCount == 1)
        simulator.advance(by: 10)
        // Before it looks, the watchdog lets the held calls land: each time one lands, the next is held.
        #expect(simulator.now == 5)
        #expect(simulator.events.last == .misuse(.arrivingWorkLimitReached(taken: 20, work: .heldCalls)))
        #expect(simulator.termination == nil)
        chain.stop()
        simulator.endBackgroundTask(keeper)
        simulator.releaseHeldCalls()
    }

    @Test func aPieceThatTakesLongStopsTheAdvanceAtItsRealTimeLimit() {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        simulator.arrivalRealTimeLimit = 0.1
        let chain = BeginChain(simulator, pieceTakes: 0.02)
        chain.beginOnAnotherThread()
        let start = ContinuousClock.now
        simulator.advance(by: 10)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(simulator.now == 0)
        let taken = simulator.events.compactMap { event in
            if case .misuse(.arrivingWorkLimitReached(let taken, .mainActorWork)) = event { taken } else { nil }
        }
        #expect(taken.count == 1)
        #expect(taken.allSatisfy { $0 >= 1 && $0 < 50 })
        chain.stop()
        simulator.advance(by: 10)
        #expect(simulator.now == 10)
    }

    @Test func theMisuseSaysWhatKeptArrivingAndWhatToDo() {
        let misuse = SimulatorMisuse.arrivingWorkLimitReached(taken: 10_000, work: .mainActorWork)
        #expect(misuse.description.contains("work sent to the main actor"))
        #expect(misuse.description.contains("it ran 10000 pieces"))
        #expect(misuse.description.contains("Stop or join the threads"))
        #expect(misuse.description.contains("advance in smaller steps"))
        #expect(SimulatorMisuse.ArrivingWork.expirationHandlers.description.contains("expiration handlers"))
        #expect(SimulatorMisuse.ArrivingWork.heldCalls.description.contains(".holdOffMainCalls"))
    }

    // MARK: - Bursts below the limit

    @Test(arguments: [(burst: 20, limit: 20), (burst: 21, limit: 20)])
    func aBurstUpToTheLimitRunsBeforeTimeMovesAndOneMorePieceStopsTheAdvance(burst: Int, limit: Int) {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        simulator.arrivalLimit = limit
        simulator.arrivalRealTimeLimit = 60
        onOtherThreads(1) { _ in
            for _ in 0..<burst {
                let slot = Locked<BackgroundTaskIdentifier?>(nil)
                let identifier = simulator.beginBackgroundTask(named: "Burst") {
                    if let identifier = slot.withLock({ $0 }) { simulator.endBackgroundTask(identifier) }
                }
                slot.withLock { $0 = identifier }
            }
        }
        simulator.advance(by: 1)
        #expect(handlerCalls(simulator) == min(burst, limit))
        #expect(simulator.now == (burst > limit ? 0 : 1))
        let stops = simulator.events.filter { if case .misuse(.arrivingWorkLimitReached) = $0 { true } else { false } }
        #expect(
            stops == (burst > limit ? [.misuse(.arrivingWorkLimitReached(taken: limit, work: .mainActorWork))] : []))
        simulator.advance(by: 1)
        #expect(handlerCalls(simulator) == burst)
        #expect(simulator.outstanding.isEmpty)
    }

    @Test func aBurstFromEightThreadsRunsEntirelyBeforeTimeMoves() throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerBeforeBeginReturns])
        let tasks = Locked<[SafeBackgroundTask]>([])
        onOtherThreads(8) { worker in
            for index in 0..<100 {
                let task = SafeBackgroundTask.begin("Burst \(worker).\(index)", backend: simulator)
                tasks.withLock { $0.append(task) }
            }
        }
        simulator.advance(by: 10)
        let calls = simulator.log.filter { if case .expirationHandlerCalled = $0.event { true } else { false } }
        #expect(calls.count == 800)
        #expect(calls.allSatisfy { $0.time == 0 })
        #expect(simulator.now == 10)
        #expect(!simulator.events.contains { if case .misuse = $0 { true } else { false } })
        #expect(tasks.value.allSatisfy { $0.state == .expired })
        try simulator.expectNoLeaks()
    }

    // MARK: - Waits that look at their deadline after every piece

    @Test func anOffMainHandlerThatKeepsSendingWorkIsGivenUpOnAfterItsTimeout() {
        let simulator = BackgroundTaskSimulator(faults: [.handlerOffMainActor])
        simulator.offMainHandlerTimeout = 0.2
        simulator.arrivalLimit = .max
        simulator.arrivalRealTimeLimit = 60
        let stopped = Locked(false)
        let hop = simulator.mainActorHop
        simulator.enterBackground()
        _ = simulator.beginBackgroundTask(named: "Keeps sending") {
            while !stopped.value {
                hop {}
                usleep(100)
            }
        }
        let start = ContinuousClock.now
        simulator.advance(by: 60)
        // The wait for the handler looks at its timeout after each piece of work the handler sends, and gives up.
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(simulator.events.contains(.misuse(.offMainHandlerDidNotReturn(BackgroundTaskIdentifier(rawValue: 1)))))
        stopped.withLock { $0 = true }
    }

    private func handlerCalls(_ simulator: BackgroundTaskSimulator) -> Int {
        simulator.events.filter { if case .expirationHandlerCalled = $0 { true } else { false } }.count
    }
}

/// Runs `body` on `count` threads of its own (never the main thread) and waits for them.
private func onOtherThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            body(index)
            done.signal()
        }
        .start()
    }
    for _ in 0..<count { done.wait() }
}

/// Begins on another thread a raw task whose expiration handler ends it and, until stopped, begins the next one on
/// another thread before it returns: each piece of work sends the next.
private final class BeginChain: Sendable {
    private let simulator: BackgroundTaskSimulator
    private let pieceTakes: TimeInterval
    private let stopped = Locked(false)

    init(_ simulator: BackgroundTaskSimulator, pieceTakes: TimeInterval = 0) {
        self.simulator = simulator
        self.pieceTakes = pieceTakes
    }

    func stop() {
        stopped.withLock { $0 = true }
    }

    /// Begins the next task on a new thread; returns once it is begun, or held at the gate.
    func beginOnAnotherThread() {
        let simulator = simulator
        let begun = DispatchSemaphore(value: 0)
        Thread { [self] in
            let slot = Locked<BackgroundTaskIdentifier?>(nil)
            let identifier = simulator.beginBackgroundTask(named: "Chain") { [self] in
                if let identifier = slot.withLock({ $0 }) { simulator.endBackgroundTask(identifier) }
                if pieceTakes > 0 { Thread.sleep(forTimeInterval: pieceTakes) }
                if !stopped.value { beginOnAnotherThread() }
            }
            slot.withLock { $0 = identifier }
            begun.signal()
        }
        .start()
        // Held at the gate, the begin returns only when released: then it is enough that it is held.
        while begun.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
            if simulator.heldCallCount > 0 { return }
        }
    }
}
