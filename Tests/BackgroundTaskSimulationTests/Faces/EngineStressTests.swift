import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

/// Four real threads race every face of the engine (begins, ends, double ends, dropped tasks, `endAll`)
/// while the test fires expiry on the main actor, then check what the system saw: every assertion
/// granted was ended exactly once, and none outlived the expiration handlers that covered it.
///
/// The threads are paced by the test, a batch of operations per step, so that they are always running
/// when the expiry fires and the whole run stays bounded (a few thousand operations).
@Suite(.serialized)
@MainActor
struct EngineStressTests {
    // MARK: - On the simulator

    @Test func everyFaceRacingTheSimulatorsExpiryEndsEachAssertionExactlyOnce() async throws {
        var configuration = SimulatorConfiguration()
        configuration.backgroundTimeBudget = 10
        let simulator = BackgroundTaskSimulator(configuration: configuration)
        let world = StressWorld(backend: simulator, schedule: { delay, work in simulator.schedule(after: delay, work) })
        world.startWorkers()
        var keepers: [SafeBackgroundTask] = []
        for stint in 0..<8 {
            if stint == 0 { simulator.enterBackground() } else { simulator.resumeInBackground() }
            simulator.faults = stint % 2 == 1 ? [.handlerTwice] : []
            keepers.append(SafeBackgroundTask.begin("Keeps the app awake", backend: simulator))
            world.gate.open()
            var expiring = false
            while !expiring {
                // A begin that reaches the system after it has started calling the handlers is covered
                // by none of them, on iOS as on the simulator: no engine can end it in time. So begins
                // wait out the step in which time runs out; ends, drops and `endAll` race it.
                expiring = (simulator.backgroundTimeRemaining ?? 0) <= 1
                if expiring {
                    world.gate.close()
                    guard await waitUntil("begins in flight to return", { world.gate.isDrained }) else { break }
                }
                guard await world.pacer.grantAndWaitUntilStarted(expiring ? 40 : 12) else { break }
                simulator.advance(by: 1)
                guard await waitUntil("the batch to be taken", { world.pacer.isConsumed }) else { break }
            }
            #expect(simulator.appState == .suspended, "stint \(stint) did not end in suspension")
            if simulator.appState != .suspended { break }
        }
        simulator.enterForeground()
        world.gate.open()
        _ = await world.pacer.grantAndWaitUntilStarted(12)
        let leftovers = await world.stop()
        world.expectCleanupsMatch(leftovers)
        for held in leftovers { held.task.end() }
        world.coalescing.endAll()
        world.perTask.endAll()
        world.inCleanups.endAll()
        simulator.advance(by: 60)

        try simulator.expectEveryAssertionEndedOnce()
        #expect(simulator.termination == nil)
        let events = simulator.events
        #expect(!simulator.consoleMessages.contains { if case .cannotEndTask = $0 { true } else { false } })
        #expect(!events.contains { if case .misuse = $0 { true } else { false } })
        let begun = events.compactMap { if case .began(let id, _) = $0 { id } else { nil } }
        let ended = events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(ended.count == Set(ended).count)
        #expect(Set(ended) == Set(begun))
        let expiries = Self.assertionsHeldPastExpiry(in: events)
        #expect(expiries.count == 8)
        #expect(expiries.allSatisfy { $0.isEmpty }, "held after the expiry's handlers returned: \(expiries)")
        #expect(keepers.allSatisfy { $0.state == .expired })
        #expect(world.cleanups.total > 0)
    }

    /// For each expiry in the log, the assertions held when it started that were still held when the
    /// app was suspended or terminated after it.
    static func assertionsHeldPastExpiry(in events: [SimulatorEvent]) -> [[Int]] {
        var held = Set<Int>()
        var atExpiry: Set<Int>?
        var result: [[Int]] = []
        for event in events {
            switch event {
            case .began(let id, _): held.insert(id.rawValue)
            case .ended(let id): held.remove(id.rawValue)
            case .backgroundTimeExpired: atExpiry = held
            case .appStateChanged(.suspended), .terminated:
                if let snapshot = atExpiry { result.append(snapshot.intersection(held).sorted()) }
                atExpiry = nil
            default: break
            }
        }
        return result
    }

    // MARK: - On a backend whose handlers the test fires

    @Test func everyFaceRacingHandlersFiredMidFlightEndsEachAssertionExactlyOnce() async throws {
        let backend = RecordingBackend()
        let timers = ManualTimers()
        let world = StressWorld(backend: backend, timers: timers)
        world.startWorkers()
        var expiries: [RecordingBackend.Expiry] = []
        for step in 0..<120 {
            let expiring = step % 5 == 4
            if expiring { backend.armExpiry() }
            guard await world.pacer.grantAndWaitUntilStarted(expiring ? 30 : 10) else { break }
            if expiring {
                // The moment: while a begin or an end is in flight on a worker thread (or 50 ms on).
                let deadline = ProcessInfo.processInfo.systemUptime + 0.05
                while !backend.isCallInFlight, ProcessInfo.processInfo.systemUptime < deadline { await Task.yield() }
                expiries.append(backend.fireExpiry(callingEachHandlerTwice: step % 10 == 9))
            }
            timers.advance(by: 0.25)  // ages the shared assertion past its renewal age, ends lingers
            timers.runDue()
            guard await waitUntil("the batch to be taken", { world.pacer.isConsumed }) else { break }
        }
        let leftovers = await world.stop()
        world.expectCleanupsMatch(leftovers)
        for held in leftovers { held.task.end() }
        world.coalescing.endAll()
        world.perTask.endAll()
        world.inCleanups.endAll()
        for _ in 0..<20 {
            timers.advance(by: 1)
            timers.runDue()
        }

        #expect(expiries.count == 24)
        #expect(expiries.contains { !$0.covered.isEmpty } && expiries.contains { !$0.begunByHandlers.isEmpty })
        for expiry in expiries {
            #expect(expiry.stillHeld.isEmpty, "held after the handlers returned: \(expiry)")
        }
        let books = backend.books
        #expect(books.begun.count > 100)
        #expect(books.foreignEnds.isEmpty, "ended but never begun: \(books.foreignEnds)")
        let notOnce = books.begun.filter { books.ends[$0] != 1 }.sorted()
        #expect(notOnce.isEmpty, "not ended exactly once: \(notOnce.map { ($0, books.ends[$0] ?? 0) })")
        #expect(world.cleanups.total > 0)
    }
}

// MARK: - The workers

/// Real threads, not Swift tasks: the operating system's scheduler interleaves them anywhere.
private let workerCount = 4

/// A task a worker holds, with the token its cleanup records.
private struct HeldTask: Sendable {
    let task: SafeBackgroundTask
    let token: Int
}

/// Everything the worker threads share: the backend, the managers, the pacing and the books.
private final class StressWorld: Sendable {
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
}

// MARK: - Pacing

/// Hands each worker a batch of operations per step, so that the threads run while the test drives
/// expiry and the run stays bounded.
private final class Pacer: Sendable {
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
private final class BeginGate: Sendable {
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
private final class CleanupJournal: Sendable {
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

/// Waits on the main actor without blocking it; records an issue after `timeout` seconds.
@MainActor
private func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ProcessInfo.processInfo.systemUptime + timeout
    while !condition() {
        guard ProcessInfo.processInfo.systemUptime < deadline else {
            Issue.record("Timed out waiting for \(what)")
            return false
        }
        try? await Task.sleep(nanoseconds: 50_000)
    }
    return true
}

/// A small seeded generator, so that each worker's sequence of operations is the same on every run.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }
}

// MARK: - The recording backend

/// `UnlimitedBackend` with books: every begin and end per identifier, and the stored expiration
/// handlers, which ``fireExpiry(callingEachHandlerTwice:)`` calls the way the system does. Begins and ends now and then pause
/// inside the call, to widen the windows in which a handler meets a call in flight.
private final class RecordingBackend: BackgroundTaskBackend {
    struct Books {
        var begun: Set<Int> = []
        var ends: [Int: Int] = [:]
        var foreignEnds: [Int] = []
        /// Held assertions and their handlers.
        var held: [Int: @MainActor @Sendable () -> Void] = [:]
        var handlerCalled: Set<Int> = []
        var calls = 0
        /// Begun on the main actor while ``fireExpiry(callingEachHandlerTwice:)`` runs, or `nil`.
        var begunByHandlers: [Int]?
    }

    /// One fired expiry: the assertions held when it started, those the handlers began (their
    /// cleanups begin and end tasks), and those of both still held after the handlers returned.
    struct Expiry {
        var covered: [Int]
        var begunByHandlers: [Int]
        var stillHeld: [Int]
    }

    private let system = UnlimitedBackend()
    private let state = Locked(Books())
    private let paused = Locked((count: 0, armed: false))

    var books: Books { state.withLock { $0 } }
    /// Whether a begin or an end is paused inside the call now.
    var isCallInFlight: Bool { paused.withLock { $0.count > 0 } }

    /// Lengthens the pauses until the next expiry has fired.
    func armExpiry() {
        paused.withLock { $0.armed = true }
    }

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        guard let identifier = system.beginBackgroundTask(named: name, expirationHandler: expirationHandler) else {
            return nil
        }
        let call = state.withLock { books in
            books.begun.insert(identifier.rawValue)
            books.held[identifier.rawValue] = expirationHandler ?? {}
            if MainActorContext.isCurrent { books.begunByHandlers?.append(identifier.rawValue) }
            books.calls += 1
            return books.calls
        }
        pause(call)  // granted, but the engine does not know the identifier yet
        return identifier
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        pause(
            state.withLock { books in
                books.calls += 1
                return books.calls
            })
        system.endBackgroundTask(identifier)
        state.withLock { books in
            if books.begun.contains(identifier.rawValue) {
                books.ends[identifier.rawValue, default: 0] += 1
                books.held[identifier.rawValue] = nil
            } else {
                books.foreignEnds.append(identifier.rawValue)
            }
        }
    }

    var backgroundTimeRemaining: TimeInterval? { system.backgroundTimeRemaining }

    /// Time runs out: calls the handler of every assertion held now, in begin order, on the main actor
    /// (twice in a row, as some devices do, with `callingEachHandlerTwice`), skipping those ended
    /// meanwhile and those whose handler was called before.
    @MainActor func fireExpiry(callingEachHandlerTwice twice: Bool) -> Expiry {
        let covered = state.withLock { books in
            books.begunByHandlers = []
            return books.held.keys.filter { !books.handlerCalled.contains($0) }.sorted()
        }
        for identifier in covered {
            let handler = state.withLock { books -> (@MainActor @Sendable () -> Void)? in
                guard let handler = books.held[identifier] else { return nil }
                books.handlerCalled.insert(identifier)
                return handler
            }
            handler?()
            if twice { handler?() }
        }
        let expiry = state.withLock { books in
            let begun = books.begunByHandlers ?? []
            books.begunByHandlers = nil
            return Expiry(
                covered: covered, begunByHandlers: begun,
                stillHeld: (covered + begun).filter { books.held[$0] != nil })
        }
        paused.withLock { $0.armed = false }
        return expiry
    }

    /// Every third call off the main actor pauses inside the call, granted (or about to end) but not
    /// returned: for 2 ms while an expiry is armed, so that handlers meet it in flight, 0.05 ms
    /// otherwise.
    private func pause(_ call: Int) {
        guard call % 3 == 0, !MainActorContext.isCurrent else { return }
        let armed = paused.withLock { paused in
            paused.count += 1
            return paused.armed
        }
        Thread.sleep(forTimeInterval: armed ? 0.002 : 0.000_05)
        paused.withLock { $0.count -= 1 }
    }
}

/// The managers' timers and clock, moved by the test.
private final class ManualTimers: Sendable {
    private struct Timer {
        let due: TimeInterval
        let work: @Sendable () -> Void
    }

    private let state = Locked((now: 0.0, pending: [Timer]()))

    var now: TimeInterval { state.withLock { $0.now } }

    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let timer = Timer(due: state.now + max(delay, 0), work: work)
            state.pending.append(timer)
        }
    }

    func advance(by seconds: TimeInterval) {
        state.withLock { $0.now += seconds }
    }

    /// Runs, outside the lock, the timers that are due.
    func runDue() {
        let due = state.withLock { state in
            let due = state.pending.filter { $0.due <= state.now }
            state.pending.removeAll { $0.due <= state.now }
            return due
        }
        for timer in due { timer.work() }
    }
}
