import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// A manager that holds its system assertion only while the app is in the background (issue 9,
/// item 9): tasks run at once; the assertion follows the app's state as the backend reports it.
@MainActor
struct ForegroundTimeTests {
    private func lazyManager(_ backend: any BackgroundTaskBackend) -> BackgroundTaskManager {
        var configuration = BackgroundTaskManager.Configuration()
        configuration.holdsAssertionOnlyInBackground = true
        return BackgroundTaskManager(backend: backend, configuration: configuration)
    }

    private func warnings(_ simulator: BackgroundTaskSimulator) -> Int {
        simulator.events.filter { if case .console(.taskCreatedTooLongAgo) = $0 { true } else { false } }.count
    }

    @Test func aLongUploadInTheForegroundHoldsNoAssertionAndDrawsNoWarning() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = lazyManager(simulator)
        let upload = try manager.beginTask("Upload")
        #expect(upload.state == .running)
        #expect(simulator.outstanding.isEmpty)
        simulator.advance(by: 45)
        upload.end()
        #expect(warnings(simulator) == 0)
        #expect(!simulator.events.contains { if case .began = $0 { true } else { false } })
    }

    @Test func theSameUploadWithAnEagerManagerIsWarnedInTheForeground() throws {
        let simulator = BackgroundTaskSimulator()
        var configuration = BackgroundTaskManager.Configuration()
        configuration.sharedAssertionRenewalAge = nil  // the task itself is 30 s old: iOS warns
        let manager = BackgroundTaskManager(backend: simulator, configuration: configuration)
        let upload = try manager.beginTask("Upload")
        simulator.advance(by: 45)
        upload.end()
        #expect(warnings(simulator) == 1)
    }

    @Test func leavingTheForegroundRaisesTheAssertionAndComingBackDropsIt() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = lazyManager(simulator)
        let upload = try manager.beginTask("Upload")
        simulator.advance(by: 10)
        simulator.enterBackground()
        #expect(simulator.outstanding.map(\.name) == ["BackgroundTaskManager"])
        simulator.advance(by: 5)
        simulator.enterForeground()
        #expect(simulator.outstanding.isEmpty)
        #expect(upload.state == .running)  // the task runs on; only the assertion went
        simulator.advance(by: 40)
        upload.end()
        try simulator.expectEveryAssertionEndedOnce()
        #expect(warnings(simulator) == 0)
    }

    @Test func aTaskBegunInTheBackgroundRaisesTheAssertionAtOnce() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = lazyManager(simulator)
        simulator.enterBackground()
        let task = try manager.beginTask("Save")
        #expect(simulator.outstanding.count == 1)
        task.end()
        simulator.advance(by: 1)
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func anExpiryInTheBackgroundRunsTheCleanupsAndEndsTheAssertion() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = lazyManager(simulator)
        let journal = HandlerJournal()
        let task = try manager.beginTask("Upload") { journal.note("cancel upload") }
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(journal.entries == ["cancel upload"])
        #expect(task.state == .expired)
        #expect(simulator.termination == nil)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aBackendThatCannotTellTheStateGetsTheAssertionAtTheFirstTask() throws {
        let backend = GateBackend()
        let manager = lazyManager(backend)
        let task = try manager.beginTask("Upload")
        #expect(backend.held.count == 1)
        task.end()
    }
}
