import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

// MARK: - The workers

/// Real threads, not Swift tasks: the operating system's scheduler interleaves them anywhere.
let workerCount = 4

/// A task a worker holds, with the token its cleanup records.
struct HeldTask: Sendable {
    let task: SafeBackgroundTask
    let token: Int
}

/// Everything the worker threads share: the backend, the managers, the pacing and the books.
final class StressWorld: Sendable {
    let backend: any BackgroundTaskBackend
    let coalescing: BackgroundTaskManager
    /// Used only by cleanups, inside expiries: its shared assertion must never outlive one.
    let inCleanups: BackgroundTaskManager
    let perTask: BackgroundTaskManager
    let timers: ManualTimers?
    let gate = BeginGate()
    let pacer = Pacer(workers: workerCount)
    let cleanups = CleanupJournal()
    /// Tasks handed between threads: both the owner and another thread may end them.
    private let pool = Locked<[HeldTask]>([])
    private let leftovers = Locked<[HeldTask]>([])
    private let finished = Locked(0)
    private let tokens = Locked(0)

    init(
        backend: any BackgroundTaskBackend,
        schedule: (@Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void)? = nil,
        timers: ManualTimers? = nil
    ) {
        self.backend = backend
        self.timers = timers
        var schedule = schedule
        var now: (@Sendable () -> TimeInterval)?
        if let timers {
            schedule = { delay, work in timers.schedule(after: delay, work) }
            now = { timers.now }
        }
        var configuration = BackgroundTaskManager.Configuration()
        configuration.maximumOutstandingTasks = 10_000
        configuration.sharedAssertionRenewalAge = 1
        coalescing = BackgroundTaskManager(backend: backend, configuration: configuration, schedule: schedule, now: now)
        inCleanups = BackgroundTaskManager(backend: backend, configuration: configuration, schedule: schedule, now: now)
        configuration.coalescesAssertions = false
        configuration.minimumTimeRemaining = 2
        perTask = BackgroundTaskManager(backend: backend, configuration: configuration, schedule: schedule, now: now)
    }

    func startWorkers() {
        for worker in 0..<workerCount {
            let thread = Thread { [self] in
                work(worker)
                finished.withLock { $0 += 1 }
            }
            thread.start()
        }
    }

    /// Stops the workers once they have taken their last batch and returns the tasks they still hold.
    @MainActor func stop() async -> [HeldTask] {
        _ = await waitUntil("the last batch to be taken") { pacer.isConsumed }
        pacer.stop()
        _ = await waitUntil("the workers to finish") { finished.value == workerCount }
        return leftovers.withLock { $0 } + pool.withLock { $0 }
    }

    /// A task still held expired if and only if its cleanup ran; no cleanup ran twice or off the main
    /// actor.
    @MainActor func expectCleanupsMatch(_ held: [HeldTask]) {
        let runs = cleanups.runs
        #expect(runs.values.allSatisfy { $0 == 1 }, "cleanups run more than once")
        #expect(cleanups.offMainActor == 0)
        for entry in held where entry.token % 11 != 0 {
            let state = entry.task.state
            #expect((state == .expired) == (runs[entry.token] == 1), "task \(entry.token) is \(state)")
        }
    }

    private func work(_ worker: Int) {
        var random = SplitMix64(seed: UInt64(worker) &+ 1)
        var held: [HeldTask] = []
        while pacer.next(worker) {
            // A pause now and then (up to 0.2 ms) spreads each batch over the main actor's step.
            if random.below(3) == 0 { Thread.sleep(forTimeInterval: Double(random.below(200)) / 1_000_000) }
            operate(random.below(100), held: &held, random: &random)
            while held.count > 24 { held.removeFirst().task.end() }
        }
        leftovers.withLock { $0.append(contentsOf: held) }
    }

    private func operate(_ roll: Int, held: inout [HeldTask], random: inout SplitMix64) {
        switch roll {
        case 0..<15: beginSafe(into: &held)
        case 15..<28: begin(in: coalescing, into: &held)
        case 28..<40: begin(in: perTask, into: &held)
        case 40..<46: runScoped(held: &held, random: &random)
        case 46..<52: runClosure(held: &held, random: &random)
        case 52..<68: endOne(of: &held, random: &random)
        case 68..<71: if !held.isEmpty { _ = held.remove(at: random.below(held.count)) }  // the safety net
        case 71..<77:
            if !held.isEmpty { pool.withLock { if $0.count < 16 { $0.append(held[random.below(held.count)]) } } }
        case 77..<84:
            if let shared = pool.withLock({ $0.popLast() }) {
                shared.task.end()
                if random.below(2) == 0 { shared.task.end() }
            }
        case 84: (random.below(2) == 0 ? coalescing : perTask).endAll()
        case 85..<92: for entry in held { _ = entry.task.state }
        default: if let timers { timers.runDue() } else { endOne(of: &held, random: &random) }
        }
    }

    private func beginSafe(into held: inout [HeldTask]) {
        guard gate.enter() else { return }
        defer { gate.leave() }
        let token = nextToken()
        held.append(HeldTask(task: .begin("Safe", backend: backend, onExpiration: cleanup(token)), token: token))
    }

    private func begin(in manager: BackgroundTaskManager, into held: inout [HeldTask]) {
        guard gate.enter() else { return }
        defer { gate.leave() }
        let token = nextToken()
        if let task = try? manager.beginTask("Managed", onExpiration: cleanup(token)) {
            held.append(HeldTask(task: task, token: token))
        }
    }

    private func runScoped(held: inout [HeldTask], random: inout SplitMix64) {
        guard gate.enter() else { return }
        defer { gate.leave() }
        let scoped = ScopedBackgroundTask("Scoped", backend: backend, onExpiration: cleanup(nextToken()))
        endOne(of: &held, random: &random)
        _ = scoped.state
        if random.below(2) == 0 { scoped.end() }  // otherwise it ends as it goes out of scope
    }

    private func runClosure(held: inout [HeldTask], random: inout SplitMix64) {
        guard gate.enter() else { return }
        defer { gate.leave() }
        let nested = random.below(2) == 0
        withBackgroundTask("Closure", backend: backend, onExpiration: cleanup(nextToken())) {
            if nested { SafeBackgroundTask.begin("Nested", backend: backend).end() } else { held.popLast()?.task.end() }
        }
    }

    /// Ends a held task, a third of the time twice.
    private func endOne(of held: inout [HeldTask], random: inout SplitMix64) {
        guard !held.isEmpty else { return }
        let entry = held.remove(at: random.below(held.count))
        entry.task.end()
        if random.below(3) == 0 { entry.task.end() }
    }

    private func nextToken() -> Int {
        tokens.withLock { token in
            token += 1
            return token
        }
    }

    /// Records that it ran; every seventh also begins and ends a task of a coalescing manager inside
    /// the expiry (its shared assertion must not linger past the expiry). Every eleventh task has no
    /// cleanup.
    private func cleanup(_ token: Int) -> (@MainActor @Sendable () -> Void)? {
        guard token % 11 != 0 else { return nil }
        return { [cleanups, inCleanups] in
            cleanups.ran(token)
            guard token % 7 == 0 else { return }
            let task = try? inCleanups.beginTask("Begun in a cleanup")
            task?.end()
        }
    }

    /// Stops the workers, checks the cleanups of the tasks they still hold, then ends those tasks and
    /// every manager's.
    @MainActor func stopAndEndEverything() async {
        let leftovers = await stop()
        expectCleanupsMatch(leftovers)
        for held in leftovers { held.task.end() }
        coalescing.endAll()
        perTask.endAll()
        inCleanups.endAll()
    }
}
