import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

/// The renewal timer of a coalescing manager: found by an independent review of the rebuilt engine;
/// each test failed before the fix and names the bug.
@MainActor @Suite(.serialized)
struct RenewalTimerTests {
    private func warnings(_ simulator: BackgroundTaskSimulator) -> Int {
        simulator.events.filter { if case .console(.taskCreatedTooLongAgo) = $0 { true } else { false } }.count
    }

    private func began(_ simulator: BackgroundTaskSimulator) -> [BackgroundTaskIdentifier] {
        simulator.events.compactMap { if case .began(let id, _) = $0 { id } else { nil } }
    }

    // MARK: - 1. The renewal timer re-arms itself at zero delay forever (rounding)

    /// `renewIfOld` asks both `now >= renewalDue` (`beganAt + age`, rounded once) and
    /// `now - beganAt >= age` (rounded again). For a shared assertion begun at 12.017 s the timer fires
    /// at exactly `renewalDue`, the first test passes and the second fails (32.017 - 12.017 rounds to
    /// 19.999999999999996), so `renewalCheckElapsed` re-arms the timer with
    /// `max(beganAt + age - now, 0) == 0`: it fires again at the same virtual instant, forever.
    /// On the simulator `advance(by:)` never returns (here a counting scheduler stops it after 200).
    @Test func theRenewalTimerDoesNotSpinWhenItsDueTimeRounds() throws {
        let simulator = BackgroundTaskSimulator()
        let timers = Locked(0)
        let manager = BackgroundTaskManager(
            backend: simulator,
            configuration: BackgroundTaskManager.Configuration(),
            schedule: { delay, work in
                let count = timers.withLock { count -> Int in
                    count += 1
                    return count
                }
                if count <= 200 { simulator.schedule(after: delay, work) }  // without the cap: a hang
            }
        )
        simulator.advance(by: 12.017)
        let task = try manager.beginTask("Long")
        simulator.advance(by: 25)  // the renewal is due at 32.017
        #expect(timers.value < 10, "the renewal timer was re-armed \(timers.value) times")
        #expect(began(simulator).count == 2, "the shared assertion was never renewed")
        task.end()
    }

    // MARK: - 2. A renewal timer that fires while the shared assertion is idle is lost

    /// The one renewal timer is armed for the first shared assertion (A, due at 20 s). A is ended after
    /// its linger; B is begun while that timer is pending, so B arms none. At 20 s the timer fires
    /// while B is lingering (no users): `renewalCheckElapsed` neither renews nor re-arms, because it
    /// re-arms only while `sharedUsers > 0`. A task joining B at 20.2 s finds B young (due at 22 s),
    /// so no timer is armed again: B, held by that one task, is never handed over and draws iOS's
    /// "created over 30 seconds ago" warning in the foreground, which renewal exists to prevent.
    @Test func aRenewalTimerFiringWhileTheSharedAssertionLingersIsNotLost() throws {
        let simulator = BackgroundTaskSimulator()
        // No diagnostics: no stale-check timers on the virtual clock to mask it.
        let manager = BackgroundTaskManager(backend: simulator)
        let first = try manager.beginTask("First")  // A, renewal timer due at 20
        simulator.advance(by: 1)
        first.end()  // A lingers 0.5 s and ends
        simulator.advance(by: 1)
        let second = try manager.beginTask("Second")  // B, begun at 2 s: the timer is pending, none armed
        simulator.advance(by: 17.9)
        second.end()  // B lingers until 20.4 s
        simulator.advance(by: 0.3)  // the timer fired at 20 s with no users
        let third = try manager.beginTask("Third")  // joins B (young: due at 22 s)
        simulator.advance(by: 20)
        #expect(warnings(simulator) == 0)
        #expect(began(simulator).count >= 3, "B was never handed over")
        third.end()
    }

    // MARK: - 3. The renewal timer spins while a renewal's begin is in flight

    /// A task joining an old shared assertion starts its renewal (on its own thread). While that
    /// begin is in flight the renewal timer fires: `renewIfOld` says "nothing" because `renewal !=
    /// nil`, and `renewalCheckElapsed` re-arms it at `max(beganAt + age - now, 0) == 0`. Each firing
    /// re-arms it at zero delay again: on the system clock a global-queue thread spins
    /// (`asyncAfter(.now())` in a loop) for as long as the begin takes.
    @Test func theRenewalTimerDoesNotSpinWhileARenewalIsBeingBegun() async throws {
        let backend = GateBackend()
        let clock = ManualClock()
        let manager = BackgroundTaskManager(
            backend: backend,
            configuration: BackgroundTaskManager.Configuration(),
            schedule: { delay, work in clock.schedule(delay, work) },
            now: { clock.now }
        )
        let first = try manager.beginTask("First")  // A at 0 s; renewal timer due at 20 s
        clock.now = 20.5
        backend.holdBegin(2)  // the renewal's begin stops at the gate
        let dropped = Locked<[BackgroundTaskLeak]>([])
        let joiner = Thread {  // joins A, which is old: renews; the task is dropped (its leak captured, not printed)
            let (_, leaks) = LeakCapture.capturing(fileID: "BackgroundTaskKitTests/RenewalTimerTests.swift") {
                _ = try? manager.beginTask("Second")
            }
            dropped.withLock { $0 = leaks }
        }
        joiner.start()
        await EngineInFlightTests.waitInBackground(for: backend.callEntered)
        let zeroDelay = clock.fireDue(upTo: 50)  // the renewal timer, and whatever it re-arms
        backend.release.signal()
        #expect(zeroDelay <= 1, "the renewal timer re-armed itself at zero delay \(zeroDelay) times")
        while backend.begins < 2 || backend.ends[1] == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        first.end()
        while !joiner.isFinished { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(dropped.value.map(\.name) == ["Second"])
    }
}

/// A clock for a manager's timers that moves only when the test says so.
final class ManualClock: @unchecked Sendable {  // all state behind `state`
    private struct State {
        var now: TimeInterval = 0
        var timers: [(due: TimeInterval, delay: TimeInterval, work: @Sendable () -> Void)] = []
    }

    private let state = Locked(State())

    var now: TimeInterval {
        get { state.withLock { $0.now } }
        set { state.withLock { $0.now = newValue } }
    }

    func schedule(_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.timers.append((due: $0.now + max(delay, 0), delay: delay, work: work)) }
    }

    /// Fires due timers, one at a time, at most `limit`; returns how many had been armed with no delay.
    func fireDue(upTo limit: Int) -> Int {
        var zeroDelay = 0
        for _ in 0..<limit {
            let next = state.withLock { state -> (TimeInterval, @Sendable () -> Void)? in
                guard let index = state.timers.indices.first(where: { state.timers[$0].due <= state.now }) else {
                    return nil
                }
                let timer = state.timers.remove(at: index)
                return (timer.delay, timer.work)
            }
            guard let (delay, work) = next else { break }
            if delay <= 0 { zeroDelay += 1 }
            work()
        }
        return zeroDelay
    }
}
