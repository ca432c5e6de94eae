import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

@Suite(.failuresOnPurpose)
@MainActor
struct SafeAndScopedTaskTests {
    // MARK: - SafeBackgroundTask

    @Test func aSafeTaskReportsItsStateThroughItsLife() throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin("Upload", backend: simulator)
        #expect(task.state == .running)
        #expect(simulator.outstanding.map(\.name) == ["Upload"])
        task.end()
        #expect(task.state == .ended)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func onExpiryTheCleanupRunsThenTheTaskEndsInsideTheHandler() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Upload", backend: simulator) {
            // While the cleanup runs, the assertion is still held.
            #expect(simulator.outstanding.count == 1)
        }
        simulator.advance(by: 30)
        #expect(task.state == .expired)
        #expect(
            simulator.events.suffix(4) == [
                .expirationHandlerCalled(id(1), onMainActor: true), .ended(id(1)),
                .expirationHandlerReturned(id(1)), .appStateChanged(.suspended),
            ]
        )
        task.end()  // after expiry: does nothing
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aRefusedSafeTaskSaysWhy() {
        let simulator = BackgroundTaskSimulator(faults: [.notGranted(callingHandler: false)])
        let task = SafeBackgroundTask.begin("Refused", backend: simulator)
        #expect(task.state == .notGranted(.notGranted))
        task.end()
        #expect(simulator.bookkeeping.badEnds == 0)
    }

    @Test func releasingARunningSafeTaskEndsItThroughTheSafetyNet() throws {
        let simulator = BackgroundTaskSimulator()
        var task: SafeBackgroundTask? = SafeBackgroundTask.begin("Forgotten", backend: simulator)
        #expect(simulator.outstanding.count == 1)
        _ = task
        task = nil
        try simulator.expectEveryAssertionEndedOnce(allowingSafetyNet: true)
        #expect(simulator.safetyNetEnds.map(\.name) == ["Forgotten"])
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
    }

    @Test func releasingTheOwnerDuringExpiryEndsTheTaskOnce() throws {
        let simulator = BackgroundTaskSimulator()
        let owner = SafeTaskBox()
        simulator.enterBackground()
        owner.task = SafeBackgroundTask.begin("Owned", backend: simulator) {
            owner.task = nil  // the cleanup drops the last reference
        }
        simulator.advance(by: 31)
        #expect(owner.task == nil)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func endingFromAnotherThreadIsSafe() async throws {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin("Cross-thread", backend: simulator)
        await Task.detached { task.end() }.value
        #expect(task.state == .ended)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test(arguments: [("", nil), ("   ", nil), ("Short", "Short")] as [(String, String?)])
    func emptyNamesCountAsNoName(_ name: String, expected: String?) {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin(name, backend: simulator)
        #expect(simulator.outstanding.first?.name == expected)
        task.end()
    }

    @Test func hugeNamesAreCut() {
        let simulator = BackgroundTaskSimulator()
        let task = SafeBackgroundTask.begin(String(repeating: "x", count: 10_000), backend: simulator)
        #expect(simulator.outstanding.first?.name?.count == 256)
        task.end()
    }

    @Test func theTaskLocalOverrideSuppliesTheBackend() throws {
        let simulator = BackgroundTaskSimulator()
        let task = withBackgroundTaskBackend(simulator) {
            SafeBackgroundTask.begin("Overridden")
        }
        #expect(simulator.outstanding.map(\.name) == ["Overridden"])
        task.end()
        try simulator.expectEveryAssertionEndedOnce()
    }

    // MARK: - ScopedBackgroundTask

    @Test func aScopedTaskEndsWhenItsScopeEnds() throws {
        let simulator = BackgroundTaskSimulator()
        do {
            let task = ScopedBackgroundTask("Scoped", backend: simulator)
            #expect(task.state == .running)
            #expect(simulator.outstanding.count == 1)
        }
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aScopedTaskEndsWhenConsumed() throws {
        let simulator = BackgroundTaskSimulator()
        let task = ScopedBackgroundTask("Scoped", backend: simulator)
        task.end()
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aScopedTaskExpiresWhileItsScopeRuns() throws {
        let simulator = BackgroundTaskSimulator()
        let journal = HandlerJournal()
        simulator.enterBackground()
        let task = ScopedBackgroundTask("Scoped", backend: simulator) { journal.note("cleanup") }
        simulator.advance(by: 31)
        #expect(task.state == .expired)
        #expect(journal.entries == ["cleanup"])
        task.end()
        try simulator.expectEveryAssertionEndedOnce()
    }
}

/// An owner that holds a task, to drop it from inside the task's own cleanup.
@MainActor
final class SafeTaskBox {
    var task: SafeBackgroundTask?
}
