import BackgroundTaskKit
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

private struct SaveFailed: Error, Equatable {}

/// Non-Sendable main-actor state, to show the closure runs in the caller's isolation.
@MainActor
private final class Library {
    var items: [String] = []
}

@MainActor
struct WithBackgroundTaskTests {
    @Test func theSyncFormReturnsTheBodysValueAndEndsTheTask() throws {
        let simulator = BackgroundTaskSimulator()
        let value = withBackgroundTask("Sum", backend: simulator) {
            #expect(simulator.outstanding.count == 1)
            return 1 + 2
        }
        #expect(value == 3)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theSyncFormPassesTheBodysTypedErrorThroughAndStillEnds() throws {
        let simulator = BackgroundTaskSimulator()
        #expect(throws: SaveFailed()) {
            try withBackgroundTask("Save", backend: simulator) { () throws(SaveFailed) in throw SaveFailed() }
        }
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theAsyncFormRunsInTheCallersIsolation() async throws {
        let simulator = BackgroundTaskSimulator()
        let library = Library()
        let count = await withBackgroundTask("Refresh", backend: simulator) {
            await Task.yield()
            library.items.append("new")  // main-actor state, no hop needed
            return library.items.count
        }
        #expect(count == 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func theAsyncFormPassesTheBodysTypedErrorThrough() async throws {
        let simulator = BackgroundTaskSimulator()
        await #expect(throws: SaveFailed()) {
            try await withBackgroundTask("Save", backend: simulator) { () async throws(SaveFailed) in
                await Task.yield()
                throw SaveFailed()
            }
        }
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func onExpiryTheAsyncBodyIsCancelledAndTheTaskEndsWithoutWaitingForIt() async throws {
        let simulator = BackgroundTaskSimulator()
        let journal = HandlerJournal()
        simulator.enterBackground()
        let work = Task { @MainActor in
            try await withBackgroundTask("Long", backend: simulator, onExpiration: { journal.note("cleanup") }) {
                journal.note("body started")
                for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }  // bounded: fails, not hangs
                journal.note(Task.isCancelled ? "body saw cancellation" : "body was never cancelled")
                try Task.checkCancellation()
            }
        }
        for _ in 0..<20 where journal.entries.isEmpty { await Task.yield() }
        simulator.advance(by: 30)
        // Ended inside the handler, before the body has noticed.
        try simulator.expectEveryAssertionEndedOnce()
        #expect(journal.entries == ["body started", "cleanup"])
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(journal.entries == ["body started", "cleanup", "body saw cancellation"])
        try simulator.expectEveryAssertionEndedOnce()
    }

    /// The caller's actor is busy after the call suspends (as a main actor with other work queued
    /// would be): its executor runs nothing until the test says so, and the test lets 60 s of
    /// background time pass first. The assertion was begun by the call itself, before it first
    /// suspended, so it covers that time; the expiry it meets cancels the body's task before that
    /// task has started, and the body starts cancelled.
    @Test func theAsyncFormBeginsBeforeItFirstSuspendsEvenWithTheCallersActorBusy() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let executor = ManualSerialExecutor()
        let uploader = Uploader(executor: executor)
        let upload = Task { await uploader.upload(on: simulator) }

        // The call runs up to its first suspension: the body's task waits for the busy actor.
        #expect(await executor.runNextJob())
        #expect(simulator.outstanding.map(\.name) == ["Upload"], "not begun before the call suspended")
        #expect(uploader.journal.entries.isEmpty)

        simulator.advance(by: 60)  // the expiry comes while the actor is still busy
        #expect(simulator.termination == nil)
        try simulator.expectEveryAssertionEndedOnce()
        while await executor.runNextJob(timeout: 0.2) {}
        let entries = await upload.value

        #expect(entries == ["cleanup", "body started cancelled"])
        #expect(simulator.log.first { if case .began = $0.event { true } else { false } }?.time == 0)
    }

    @Test func whenNotGrantedTheBodyRunsAnyway() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let syncValue = withBackgroundTask("Refused", backend: simulator) { "ran" }
        let asyncValue = await withBackgroundTask("Refused", backend: simulator) { () async in "ran" }
        #expect(syncValue == "ran")
        #expect(asyncValue == "ran")
        #expect(simulator.events == [.notGranted(name: "Refused"), .notGranted(name: "Refused")])
    }

    /// Refused in the background, out of time: the async body starts cancelled, so work that must not run unprotected
    /// (a write that takes a database lock the app would be suspended holding) does not start. Refused in the
    /// foreground (an injected fault), it runs uncancelled, as before.
    @Test func refusedInTheBackgroundTheAsyncBodyStartsCancelled() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let begun = simulator.beginBackgroundTask(named: "Upload", expirationHandler: {})
        let upload = try #require(begun)
        simulator.advance(by: 27)  // the handlers were called: no time left to lend
        let startedCancelled = await withBackgroundTask("Save", backend: simulator) { () async in Task.isCancelled }
        let syncRan = withBackgroundTask("Save now", backend: simulator) { true }
        simulator.endBackgroundTask(upload)
        #expect(startedCancelled)
        #expect(syncRan)
        #expect(!Task.isCancelled)
        #expect(simulator.events.filter { if case .notGranted = $0 { true } else { false } }.count == 2)

        let foreground = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let cancelledInForeground = await withBackgroundTask("Save", backend: foreground) { () async in
            Task.isCancelled
        }
        #expect(!cancelledInForeground)
    }

    @Test func aCancellationAfterTheBodyReturnedIsHarmless() async throws {
        let simulator = BackgroundTaskSimulator(faults: [.handlerTwice])
        simulator.enterBackground()
        await withBackgroundTask("Quick", backend: simulator) { () async in }
        simulator.advance(by: 40)
        try simulator.expectEveryAssertionEndedOnce()
        #expect(!Task.isCancelled)
    }

    /// An expiry cancels the body, not the task that called `withBackgroundTask`: the next batch of a
    /// long-lived loop runs uncancelled, and the caller can tell the expiry from its own cancellation.
    @Test func anExpiryCancelsTheBodyButNotTheCallingTask() async throws {
        let simulator = BackgroundTaskSimulator()
        let journal = HandlerJournal()
        simulator.enterBackground()
        let loop = Task { @MainActor in
            for batch in 1...2 {
                do {
                    try await withBackgroundTask("Batch \(batch)", backend: simulator) {
                        journal.note("batch \(batch) started")
                        for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }
                        try Task.checkCancellation()
                    }
                    journal.note("batch \(batch) finished")
                } catch is CancellationError where !Task.isCancelled {
                    journal.note("batch \(batch) expired; the loop goes on")
                } catch {
                    journal.note("batch \(batch): the loop itself was cancelled")
                }
                if batch == 1 { simulator.enterForeground() }
            }
            return Task.isCancelled
        }
        for _ in 0..<50 where journal.entries.isEmpty { await Task.yield() }
        simulator.advance(by: 30)  // batch 1 expires
        for _ in 0..<200 where journal.entries.count < 3 { await Task.yield() }
        loop.cancel()  // now the loop's own cancellation: passed on to batch 2's body
        let loopWasCancelled = await loop.value
        #expect(
            journal.entries == [
                "batch 1 started", "batch 1 expired; the loop goes on", "batch 2 started",
                "batch 2: the loop itself was cancelled",
            ])
        #expect(loopWasCancelled)
        try simulator.expectEveryAssertionEndedOnce()
    }

    /// The body runs in the caller's isolation (an actor's state, used without `await`) and sees the
    /// caller's task-local values (the test's default backend).
    @Test func theAsyncBodyRunsInTheCallersIsolationWithItsTaskLocals() async throws {
        actor Counter {
            var count = 0
            func increment(using simulator: BackgroundTaskSimulator) async -> Int {
                await withBackgroundTaskBackend(simulator) {
                    await withBackgroundTask("Count") { () async in
                        assertIsolated("the body left the actor")
                        count += 1
                        return count
                    }
                }
            }
        }
        let simulator = BackgroundTaskSimulator()
        let counter = Counter()
        #expect(await counter.increment(using: simulator) == 1)
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Count"])
        try simulator.expectEveryAssertionEndedOnce()
    }

    /// From the main actor, the child task runs the body on the main actor. (A task closure that
    /// captures the caller's `isolated` parameter compiles, but runs on the global executor.)
    @Test func fromTheMainActorTheBodyStaysOnTheMainActor() async throws {
        let simulator = BackgroundTaskSimulator()
        let onMainActor = await withBackgroundTask("Main", backend: simulator) { () async in
            MainActorContext.isCurrent
        }
        #expect(onMainActor)
        let manager = BackgroundTaskManager(backend: simulator)
        let managedOnMainActor = try await manager.withTask("Managed") { () async in MainActorContext.isCurrent }
        #expect(managedOnMainActor)
        manager.endAll()
        try simulator.expectEveryAssertionEndedOnce()
    }
}

// MARK: - An actor whose executor runs only when the test says

/// A serial executor that keeps its jobs until ``runNextJob()``: an actor on it stays busy (its
/// queued work waits) for as long as the test wants, in a fixed order.
private final class ManualSerialExecutor: SerialExecutor, @unchecked Sendable {  // `jobs` only under `lock`
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
    }

    /// Waits (up to `timeout` seconds) for a job, runs it on this thread and returns `true`; `false`
    /// when none came.
    func runNextJob(timeout: TimeInterval = 10) async -> Bool {
        for _ in 0..<Int(timeout * 1000) {
            if let job = lock.withLock({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
                job.runSynchronously(on: asUnownedSerialExecutor())
                return true
            }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return false
    }
}

/// An actor on a ``ManualSerialExecutor`` that uploads inside `withBackgroundTask`.
private actor Uploader {
    private let executor: ManualSerialExecutor
    nonisolated let journal = LockedJournal()

    init(executor: ManualSerialExecutor) {
        self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func upload(on simulator: BackgroundTaskSimulator) async -> [String] {
        let journal = journal
        let cleanup: @MainActor @Sendable () -> Void = { journal.note("cleanup") }
        // An `async` body, or the synchronous overload would be chosen.
        await withBackgroundTask("Upload", backend: simulator, onExpiration: cleanup) { () async in
            journal.note(Task.isCancelled ? "body started cancelled" : "body started")
        }
        return journal.entries
    }
}

/// A journal any thread may write.
private final class LockedJournal: Sendable {
    private let lines = Locked<[String]>([])
    var entries: [String] { lines.value }
    func note(_ line: String) { lines.withLock { $0.append(line) } }
}
