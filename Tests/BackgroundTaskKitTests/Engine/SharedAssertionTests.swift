import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// A coalescing manager's one system assertion: never old just because its users overlap, never
/// lingering past an expiry. Each failed on the engine before the rebuild.
@MainActor
struct SharedAssertionTests {
    private func manager(
        _ simulator: BackgroundTaskSimulator,
        _ configure: (inout BackgroundTaskManager.Configuration) -> Void = { _ in }
    ) -> BackgroundTaskManager {
        var configuration = BackgroundTaskManager.Configuration()
        configure(&configuration)
        return BackgroundTaskManager(backend: simulator, configuration: configuration, diagnostics: .init())
    }

    /// One task every 100 ms, each 10 ms long, for a minute in the foreground.
    private func stream(_ manager: BackgroundTaskManager, on simulator: BackgroundTaskSimulator) throws {
        for index in 0..<600 {
            let task = try manager.beginTask("Tick \(index)")
            simulator.advance(by: 0.01)
            task.end()
            simulator.advance(by: 0.09)
        }
    }

    private func warnings(_ simulator: BackgroundTaskSimulator) -> [SimulatorLogEntry] {
        simulator.log.filter { if case .console(.taskCreatedTooLongAgo) = $0.event { true } else { false } }
    }

    // MARK: - Item 2

    @Test func overlappingShortTasksNeverDrawTheSystemsThirtySecondWarning() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = manager(simulator)
        let log = EventLog()
        manager.diagnostics?.addObserver { log.record($0) }
        try stream(manager, on: simulator)
        manager.diagnostics?.waitForObservers()
        #expect(warnings(simulator).isEmpty)
        #expect(!log.all.contains { if case .stale = $0.kind { true } else { false } })
        // Handed over a few times, never with a gap: a fresh assertion is begun before the old one ends.
        let began = simulator.log.compactMap { if case .began(let id, _) = $0.event { id } else { nil } }
        #expect(began.count >= 3)
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func withoutRenewalTheSharedAssertionDrawsTheWarningAndItsOwnStaleEvent() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = manager(simulator) { $0.sharedAssertionRenewalAge = nil }
        let log = EventLog()
        manager.diagnostics?.addObserver { log.record($0) }
        try stream(manager, on: simulator)
        manager.diagnostics?.waitForObservers()
        #expect(warnings(simulator).count == 1)
        let stale = log.all.filter { if case .stale = $0.kind { true } else { false } }
        #expect(stale.map(\.taskID.number) == [0])  // the shared assertion, not a task
        #expect(stale.map(\.name) == ["BackgroundTaskManager"])
    }

    @Test func aRenewedAssertionIsBegunBeforeTheOldOneEnds() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = manager(simulator)
        let task = try manager.beginTask("Long")
        simulator.advance(by: 25)  // the renewal timer fires at 20 s
        let events = simulator.events.filter {
            switch $0 {
            case .began, .ended: true
            default: false
            }
        }
        guard events.count == 3, case .began(let first, _) = events[0], case .began(let second, _) = events[1],
            case .ended(let ended) = events[2]
        else {
            Issue.record("expected began, began, ended; got \(events)")
            return
        }
        #expect(ended == first)
        #expect(second != first)
        task.end()
    }

    // MARK: - Item 6

    @Test func aManagerTaskBegunAndEndedInsideAnotherTasksExpiryDoesNotLinger() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = manager(simulator)
        simulator.enterBackground()
        let upload = SafeBackgroundTask.begin("Upload", backend: simulator) {
            (try? manager.beginTask("Flush"))?.end()
        }
        simulator.advance(by: 60)
        #expect(simulator.termination == nil)
        try simulator.expectEveryAssertionEndedOnce()
        #expect(upload.state == .expired)
    }

    @Test func aSharedAssertionDoesNotLingerWithLittleBackgroundTimeLeft() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = manager(simulator)
        simulator.enterBackground()
        let holder = SafeBackgroundTask.begin("Holder", backend: simulator)
        simulator.advance(by: 25.5)  // 4.5 s left, the handlers not yet called
        try manager.beginTask("Late").end()
        #expect(simulator.outstanding.map(\.name) == ["Holder"])
        holder.end()
    }
}
