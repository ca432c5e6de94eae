import BackgroundTaskKitTesting
import Dispatch
import Foundation
import Testing

/// Run again under the thread sanitizer by CI (`--filter ConcurrencyTests`).
@MainActor
struct SimulatorConcurrencyTests {
    @Test func beginAndEndFromManyThreadsKeepsTheBooksStraight() async throws {
        let simulator = BackgroundTaskSimulator()
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for index in 0..<100 {
                    let identifier = simulator.beginBackgroundTask(
                        named: "Worker \(worker).\(index)", expirationHandler: nil)
                    if let identifier { simulator.endBackgroundTask(identifier) }
                }
            }
        }.value
        try simulator.expectNoLeaks()
        let begun = simulator.events.compactMap { if case .began(let id, _) = $0 { id } else { nil } }
        let ended = simulator.events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(begun.count == 800)
        #expect(Set(begun).count == 800)
        #expect(Set(ended) == Set(begun))
        #expect(simulator.consoleMessages.isEmpty)
    }

    @Test func tasksBegunAndEndedOnOtherThreadsWhileExpiryFiresAreEndedAtMostOnce() async throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let keeper = simulator.beginBackgroundTask(named: "Keeps the app awake", expirationHandler: nil)
        let workers = Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for index in 0..<200 {
                    let slot = Locked<BackgroundTaskIdentifier?>(nil)
                    let identifier = simulator.beginBackgroundTask(named: "Job \(worker).\(index)") {
                        if let identifier = slot.withLock({ $0.take() }) { simulator.endBackgroundTask(identifier) }
                    }
                    slot.withLock { $0 = identifier }
                    if let identifier = slot.withLock({ $0.take() }) { simulator.endBackgroundTask(identifier) }
                }
            }
        }
        for _ in 0..<40 {
            simulator.advance(by: 1)
            await Task.yield()
        }
        await workers.value
        if let keeper { simulator.endBackgroundTask(keeper) }
        let ended = simulator.events.compactMap { if case .ended(let id) = $0 { id } else { nil } }
        #expect(ended.count == Set(ended).count)
        #expect(!simulator.consoleMessages.contains { if case .cannotEndTask = $0 { true } else { false } })
        // The keeper had no handler, so the expiry at 30 s terminated the app.
        try simulator.expectTermination(.watchdogTimeout, at: 30)
    }
}
