import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Dispatch
import Foundation
import TestSupport
import Testing

/// Many tasks begun and ended from several threads while expiry fires. Run again under the thread
/// sanitizer by CI (`--filter ConcurrencyTests`).
@MainActor
struct FaceConcurrencyTests {
    @Test(arguments: [false, true])
    func managerTasksFromManyThreadsWhileExpiryFiresAreEachEndedOnce(coalescing: Bool) async throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = coalescing
        configuration.maximumOutstandingTasks = 50
        let manager = BackgroundTaskManager(
            backend: simulator,
            configuration: configuration,
            schedule: { delay, work in simulator.schedule(after: delay, work) },
            diagnostics: .init()
        )
        let cleanups = Locked(0)
        let observed = Locked(0)
        manager.diagnostics?.addObserver { _ in observed.withLock { $0 += 1 } }
        simulator.enterBackground()
        let keeper = try manager.beginTask("Keeps the app awake")
        let workers = Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for index in 0..<150 {
                    let task = try? manager.beginTask("Job \(worker).\(index)") { cleanups.withLock { $0 += 1 } }
                    if index % 3 != 0 { task?.end() }  // a third are left to the expiry or the safety net
                }
            }
        }
        for _ in 0..<40 {
            simulator.advance(by: 1)
            await Task.yield()
        }
        await workers.value
        keeper.end()
        manager.endAll()
        simulator.advance(by: 1)
        #expect(simulator.bookkeeping.badEnds == 0)
        let ended = simulator.events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(ended.count == Set(ended).count)
        #expect(manager.outstandingTasks.isEmpty)
        manager.diagnostics?.waitForObservers()
        #expect(observed.value > 0)
    }

    @Test func safeTasksBegunAndEndedOnManyThreadsLeakNothing() async throws {
        let simulator = BackgroundTaskSimulator()
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for index in 0..<100 {
                    let task = SafeBackgroundTask.begin("Worker \(worker).\(index)", backend: simulator)
                    DispatchQueue.global().async { task.end() }
                    task.end()
                }
            }
        }.value
        for _ in 0..<100 where !simulator.outstanding.isEmpty {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try simulator.expectEveryAssertionEndedOnce()
        #expect(simulator.bookkeeping.began == 800)
    }

    @Test func withBackgroundTaskBodiesCancelledByExpiryWhileOthersFinish() async throws {
        let simulator = BackgroundTaskSimulator()
        let stop = Locked(false)  // a body that was never granted is never cancelled: stop it at the end
        simulator.enterBackground()
        let bodies = (0..<20).map { index in
            Task.detached {
                await withBackgroundTask("Body \(index)", backend: simulator) { () async in
                    while !Task.isCancelled, index % 2 == 0, !stop.value { await Task.yield() }
                }
            }
        }
        // Every body must hold its assertion before time moves (a begin in a suspended app is not
        // granted).
        for _ in 0..<10_000 where simulator.bookkeeping.began < 20 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(simulator.bookkeeping.began == 20)
        for _ in 0..<40 {
            simulator.advance(by: 1)
            await Task.yield()
        }
        stop.withLock { $0 = true }
        for body in bodies { await body.value }
        #expect(simulator.bookkeeping.badEnds == 0)
        try simulator.expectEveryAssertionEndedOnce()
    }
}
