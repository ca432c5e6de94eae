import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

/// Six threads begin, end, drop and end all tasks of every face and of two managers on one simulator, under every
/// fault, with the default handlers, while the main actor moves the clock and the app between the foreground and the
/// background: every driving call returns while the threads still run (before the simulator bounded the work it takes
/// from other threads, the first `advance(by: 27.9)` never returned). Run again under the thread sanitizer by CI
/// (`--filter ConcurrencyTests`). Here an advance takes at most 1,000 pieces of arriving work or 0.1 s, so that the run
/// takes a few seconds; `BTK_SIMULATOR_STRESS_SECONDS=300` runs rounds for 5 minutes with the simulator's own limits
/// and prints the slowest call.
@MainActor
struct SimulatorThreadLoadConcurrencyTests {
    /// Each round's faults: every fault, with `.handlerBeforeBeginReturns` (a begin off the main thread sends its
    /// handler there) in most.
    static let faultSets: [Set<SimulatorFault>] = [
        [.handlerBeforeBeginReturns],
        [.handlerBeforeBeginReturns, .handlerTwice],
        [.handlerBeforeBeginReturns, .handlerOffMainActor, .noHandlerWhenLittleTimeLeft],
        [.notGranted(callingHandler: true)],
        [.holdOffMainCalls(.beginsAndEnds), .handlerBeforeBeginReturns],
        [.holdOffMainCalls(.ends), .handlerOffMainActor, .handlerTwice],
        [.notGranted(callingHandler: false)],
        [],
    ]

    /// The longest the test lets the threads run: past it they are stopped, so that an advance that never returns
    /// fails the test instead of holding CI.
    static let safetyLimit: TimeInterval = 60

    /// A driving call, how long it took and whether the threads still ran when it returned.
    struct Call {
        var name: String
        var seconds: TimeInterval
        var threadsRan: Bool
    }

    /// What the checks need of the driving calls, kept small for a run of minutes.
    struct Calls {
        var count = 0
        var slowest: Call?
        /// The calls that returned only once the threads had stopped (the first ten).
        var stalled: [String] = []

        mutating func note(_ call: Call) {
            count += 1
            if call.seconds > slowest?.seconds ?? -1 { slowest = call }
            if !call.threadsRan, stalled.count < 10 { stalled.append(call.name) }
        }
    }

    @Test func everyDrivingCallReturnsWhileSixThreadsDriveEveryFaceUnderEveryFault() async {
        let seconds = ProcessInfo.processInfo.environment["BTK_SIMULATOR_STRESS_SECONDS"].flatMap(Double.init) ?? 0
        let long = seconds > 0
        let threads = Workers(world: World(faults: [], quick: !long))
        threads.start(count: 6)
        let watchdog = threads.stopAfter(Self.safetyLimit + seconds)
        let start = Date()
        var calls = Calls()
        var round = 0
        while round < Self.faultSets.count || Date().timeIntervalSince(start) < seconds, threads.areRunning {
            let world = World(faults: Self.faultSets[round % Self.faultSets.count], quick: !long)
            threads.enter(world)?.dismantle()
            let roundStart = Date()
            // The main actor stays in the simulator's driving calls: the work the threads send it runs there or
            // nowhere.
            repeat {
                Self.driveOneStay(world.simulator, threads: threads, into: &calls)
            } while Date().timeIntervalSince(roundStart) < (long ? 0.5 : 0.05) && world.simulator.termination == nil
                && threads.areRunning
            // While the test awaits, other tests may hold the main actor for seconds: the threads stop sending after a
            // moment, so that they do not slow those tests down meanwhile.
            threads.pause(after: 0.2)
            calls.note(await Self.waitForWhatNeverComes(world.simulator, threads: threads))
            threads.keepRunning()
            threads.retireAll()
            Self.expectEachAssertionEndedAtMostOnce(world.simulator, round: round)
            round += 1
        }
        threads.stop()
        watchdog.cancel()
        #expect(await threads.finish(), "the threads did not finish")
        #expect(calls.stalled.isEmpty, "returned only once the threads were stopped: \(calls.stalled)")
        #expect(round >= Self.faultSets.count)
        #expect(threads.operations > 0)
        #expect((calls.slowest?.seconds ?? 0) < 30)
        guard long, let slowest = calls.slowest else { return }
        print(
            "SimulatorThreadLoadConcurrencyTests: \(round) rounds, \(calls.count) driving calls, "
                + "\(threads.operations) operations; slowest: \(slowest.name), "
                + String(format: "%.3f s", slowest.seconds)
        )
    }

    /// One stay in the background, then in the foreground, then in the background again until the budget runs out.
    static func driveOneStay(_ simulator: BackgroundTaskSimulator, threads: Workers, into calls: inout Calls) {
        func drive(_ name: String, _ body: () -> Void) {
            let began = Date()
            body()
            calls.note(Call(name: name, seconds: Date().timeIntervalSince(began), threadsRan: threads.areRunning))
        }
        func move(to background: Bool) {
            switch (simulator.appState, background) {
            case (.foreground, true): simulator.enterBackground()
            case (.background, false), (.suspended, false): simulator.enterForeground()
            case (.suspended, true): simulator.resumeInBackground()
            default: break
            }
        }
        move(to: true)
        simulator.releaseHeldCalls()
        drive("advance(by: 27.9)") { simulator.advance(by: 27.9) }
        move(to: false)
        drive("advance(by: 1)") { simulator.advance(by: 1) }
        move(to: true)
        drive("advance(by: 27.9), to the expiry") { simulator.advance(by: 27.9) }
        drive("spend(5)") { simulator.spend(5) }
        move(to: false)
    }

    /// The waits time out (nothing comes that could end them), and their `await` returns to the main actor while the
    /// threads keep sending it work.
    static func waitForWhatNeverComes(_ simulator: BackgroundTaskSimulator, threads: Workers) async -> Call {
        let waited = Date()
        _ = try? await simulator.waitForBegins(Int.max, timeout: 0.02)
        _ = try? await simulator.waitForHeldCalls(Int.max, timeout: 0.02)
        _ = try? await simulator.waitForScheduledTaskCompletion("never submitted", timeout: 0.02)
        return Call(name: "waitFor…", seconds: Date().timeIntervalSince(waited), threadsRan: threads.areRunning)
    }

    /// The faces end each assertion once, whatever the threads and the faults do.
    static func expectEachAssertionEndedAtMostOnce(_ simulator: BackgroundTaskSimulator, round: Int) {
        let events = simulator.events
        let ended = events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(ended.count == Set(ended).count, "round \(round): an assertion was ended twice")
        let badEnds = events.filter { if case .console(.cannotEndTask) = $0 { true } else { false } }
        #expect(badEnds.isEmpty, "round \(round): \(badEnds.prefix(3))")
    }
}

extension SimulatorThreadLoadConcurrencyTests {
    /// One round's app: a simulator under the round's faults, two managers on it, and tasks handed between threads.
    final class World: Sendable {
        let simulator: BackgroundTaskSimulator
        let coalescing: BackgroundTaskManager
        let separate: BackgroundTaskManager
        let handedOver = Locked<[SafeBackgroundTask]>([])
        /// `async` bodies running now, each in a task of its own.
        let asyncBodies = Locked(0)

        /// `quick`: one advance takes at most 1,000 pieces of arriving work, or 0.1 s of real time (not 10,000 or
        /// 2 s), so that the suite's run takes a few seconds.
        init(faults: Set<SimulatorFault>, quick: Bool) {
            simulator = BackgroundTaskSimulator(faults: faults)
            if quick {
                simulator.arrivalLimit = 1_000
                simulator.arrivalRealTimeLimit = 0.1
            }
            var configuration = BackgroundTaskManager.Configuration()
            configuration.maximumOutstandingTasks = 100
            coalescing = BackgroundTaskManager(backend: simulator, configuration: configuration)
            configuration.coalescesAssertions = false
            separate = BackgroundTaskManager(backend: simulator, configuration: configuration)
        }

        /// The round is over: the threads' calls go on to the system and to the next round, and the work they sent
        /// that is still waiting runs (a few advances, each taking what it may), so that the world can go.
        @MainActor func retire() {
            simulator.faults = []
            if simulator.appState == .suspended { simulator.resumeInBackground() }
            simulator.releaseHeldCalls()
            for _ in 0..<10 where simulator.arrivingWorkWaiting > 0 && simulator.termination == nil {
                simulator.advance(by: 0)
            }
        }

        /// Ends what the world's managers hold and plays their timers in the foreground, so that no timer of the
        /// simulator keeps a manager, and the manager the simulator, for ever: a long run lets the world go.
        @MainActor func dismantle() {
            retire()
            guard simulator.termination == nil else { return }
            if simulator.appState != .foreground { simulator.enterForeground() }
            coalescing.endAll()
            separate.endAll()
            let left = handedOver.withLock { tasks in
                defer { tasks = [] }
                return tasks
            }
            for task in left { task.end() }
            simulator.advance(by: 60)
        }

        /// Whether the work waiting for the main thread is more than two advances take: the threads wait, so that a
        /// long run does not pile up work, and memory, without end.
        var isSwamped: Bool {
            simulator.arrivingWorkWaiting > 2 * simulator.arrivalLimit
        }

        /// One operation of a thread's loop.
        func operate(_ choice: UInt64) {
            switch choice % 13 {
            case 0: SafeBackgroundTask.begin("Safe", backend: simulator).end()
            case 1: _ = SafeBackgroundTask.begin("Dropped", backend: simulator)  // the safety net ends it
            case 2: (try? coalescing.beginTask("Coalesced"))?.end()
            case 3: _ = try? coalescing.beginTask("Coalesced, dropped")
            case 4:
                let task = try? separate.beginTask("Separate")
                task?.end()
                task?.end()  // ending twice does nothing
            case 5:
                let scoped = ScopedBackgroundTask("Scoped", backend: simulator)
                scoped.end()
            case 6: withBackgroundTask("With", backend: simulator) {}
            case 7:
                let task = SafeBackgroundTask.begin("Handed over", backend: simulator, onExpiration: {})
                let excess = handedOver.withLock { tasks in
                    tasks.append(task)
                    return tasks.count > 50 ? tasks.removeFirst() : nil
                }
                excess?.end()
            case 8: handedOver.withLock { $0.popLast() }?.end()
            case 9: if choice % 7 == 0 { coalescing.endAll() } else { separate.endAll() }
            case 10:
                if let identifier = simulator.beginBackgroundTask(named: "Raw", expirationHandler: nil) {
                    simulator.endBackgroundTask(identifier)
                }
            case 11:
                // The `async` form, in a task of its own, one at a time: a begin or end it makes while the app is
                // suspended is frozen until the app runs again, holding a thread of the cooperative pool (as many as
                // cores), which the test's own awaits need.
                let starts = asyncBodies.withLock { bodies in
                    guard bodies < 1 else { return false }
                    bodies += 1
                    return true
                }
                guard starts else { return }
                Task.detached { [self] in
                    await withBackgroundTask("Async", backend: simulator) { () async in await Task.yield() }
                    asyncBodies.withLock { $0 -= 1 }
                }
            default: _ = try? separate.beginTask("Separate, dropped")
            }
        }
    }

    /// The stress's threads: each runs operations on the current world until stopped.
    final class Workers: Sendable {
        private let world: Locked<World>
        /// The latest worlds: a thread may still be on its way through an earlier one (a call it made just as the round
        /// ended may be held at its gate: each round lets the held calls of the latest go on).
        private let worlds: Locked<[World]>
        private let stopped = Locked(false)
        /// When the threads pause (until ``keepRunning()``), in `ProcessInfo.systemUptime` seconds.
        private let pauseTime = Locked(TimeInterval.infinity)
        private let running = Locked(0)
        private let done = Locked(0)

        init(world: World) {
            self.world = Locked(world)
            worlds = Locked([world])
        }

        /// Operations done so far.
        var operations: Int { done.value }

        /// Whether the threads run (not stopped, by the test or by the safety limit).
        var areRunning: Bool { !stopped.value && running.value > 0 }

        /// The threads go on in `next`; returns the world no thread can be in any more.
        func enter(_ next: World) -> World? {
            world.withLock { $0 = next }
            return worlds.withLock { worlds in
                worlds.append(next)
                return worlds.count > 3 ? worlds.removeFirst() : nil
            }
        }

        func start(count: Int) {
            for thread in 0..<count {
                running.withLock { $0 += 1 }
                Thread { [self] in
                    var random = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
                    var count = 0
                    while !stopped.value {
                        guard ProcessInfo.processInfo.systemUptime < pauseTime.value, !world.value.isSwamped else {
                            usleep(1_000)
                            continue
                        }
                        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        world.value.operate(random >> 33)
                        count += 1
                    }
                    done.withLock { $0 += count }
                    running.withLock { $0 -= 1 }
                }
                .start()
            }
        }

        /// The threads pause `seconds` of real time from now.
        func pause(after seconds: TimeInterval) {
            pauseTime.withLock { $0 = ProcessInfo.processInfo.systemUptime + seconds }
        }

        /// The threads go on, or never pause.
        func keepRunning() {
            pauseTime.withLock { $0 = .infinity }
        }

        func stop() {
            stopped.withLock { $0 = true }
        }

        /// Stops the threads after `seconds` of real time unless cancelled.
        func stopAfter(_ seconds: TimeInterval) -> DispatchWorkItem {
            let item = DispatchWorkItem { [self] in stop() }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
            return item
        }

        /// Lets the held and frozen calls of the latest worlds go on.
        @MainActor func retireAll() {
            for world in worlds.value { world.retire() }
        }

        /// Waits until every thread has returned, letting their held and frozen calls go on; `false` after 30 s.
        @MainActor func finish() async -> Bool {
            let deadline = Date(timeIntervalSinceNow: 30)
            while running.value > 0, Date() < deadline {
                retireAll()
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            return running.value == 0
        }
    }
}
