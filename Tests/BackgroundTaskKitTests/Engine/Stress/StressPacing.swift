import BackgroundTaskKitTesting
import BackgroundTaskPromiseChecking
import Dispatch
import Foundation
import TestSupport
import Testing

// MARK: - Pacing

/// Hands each worker a batch of operations per step, so that the threads run while the test drives
/// expiry and the run stays bounded.
final class Pacer: Sendable {
    private struct State {
        var allowance: [Int]
        var taken: [Int]
        var stopped = false
    }

    private let state: Locked<State>

    init(workers: Int) {
        state = Locked(
            State(allowance: Array(repeating: 0, count: workers), taken: Array(repeating: 0, count: workers)))
    }

    /// A worker waits for its next operation; `false` once stopped.
    func next(_ worker: Int) -> Bool {
        while true {
            let verdict = state.withLock { state -> Bool? in
                guard state.allowance[worker] == 0 else {
                    state.allowance[worker] -= 1
                    state.taken[worker] += 1
                    return true
                }
                return state.stopped ? false : nil
            }
            if let verdict { return verdict }
            Thread.sleep(forTimeInterval: 0.000_05)
        }
    }

    /// Grants every worker `count` operations and waits until each has begun its batch.
    @MainActor func grantAndWaitUntilStarted(_ count: Int) async -> Bool {
        let before = state.withLock { state in
            for worker in state.allowance.indices { state.allowance[worker] += count }
            return state.taken
        }
        return await waitUntil("every worker to start its batch") {
            state.withLock { state in zip(state.taken, before).allSatisfy { $0 > $1 } }
        }
    }

    var isConsumed: Bool { state.withLock { $0.allowance.allSatisfy { $0 == 0 } } }

    func stop() {
        state.withLock { $0.stopped = true }
    }
}

/// Closed while the simulator expires: a begin either returned before the expiry started or waits
/// until the test opens the gate again (the worker then does something else).
final class BeginGate: Sendable {
    private let state = Locked((closed: false, inFlight: 0))

    func enter() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.inFlight += 1
            return true
        }
    }

    func leave() {
        state.withLock { $0.inFlight -= 1 }
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    func open() {
        state.withLock { $0.closed = false }
    }

    var isDrained: Bool { state.withLock { $0.inFlight == 0 } }
}

/// Which cleanups ran, how often, and where.
final class CleanupJournal: Sendable {
    private let state = Locked((runs: [Int: Int](), offMainActor: 0))

    @MainActor func ran(_ token: Int) {
        let onMainActor = MainActorContext.isCurrent
        state.withLock { state in
            state.runs[token, default: 0] += 1
            if !onMainActor { state.offMainActor += 1 }
        }
    }

    var runs: [Int: Int] { state.withLock { $0.runs } }
    var offMainActor: Int { state.withLock { $0.offMainActor } }
    var total: Int { state.withLock { $0.runs.values.reduce(0, +) } }
}

/// The checker's seeded generator (SplitMix64), so that each worker's sequence of operations is the
/// same on every run.
typealias SplitMix64 = PromiseRandom

extension PromiseRandom {
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
