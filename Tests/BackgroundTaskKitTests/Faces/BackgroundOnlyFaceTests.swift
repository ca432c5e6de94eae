import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Every standalone face can hold its system assertion only while the app is in the background, as a
/// manager can (issue 22, item 5): the work runs at once; the assertion, named as the task, is raised
/// when the app leaves the foreground (before it could be suspended) and ended exactly once.
@MainActor
struct BackgroundOnlyFaceTests {
    private func warnings(_ simulator: BackgroundTaskSimulator) -> Int {
        simulator.events.filter { if case .console(.taskCreatedTooLongAgo) = $0 { true } else { false } }.count
    }

    @Test func aForegroundUploadHoldsNoAssertionAndDrawsNoWarning() {
        let simulator = BackgroundTaskSimulator()
        let upload = SafeBackgroundTask.begin("Upload", backend: simulator, holdsAssertionOnlyInBackground: true)
        #expect(upload.state == .running)
        #expect(simulator.outstanding.isEmpty)
        simulator.advance(by: 45)
        upload.end()
        #expect(upload.state == .ended)
        #expect(warnings(simulator) == 0)
        #expect(simulator.assertionHistory.isEmpty)
    }

    @Test func theSameUploadWithoutTheOptionIsWarnedInTheForeground() {
        let simulator = BackgroundTaskSimulator()
        let upload = SafeBackgroundTask.begin("Upload", backend: simulator)
        simulator.advance(by: 45)
        upload.end()
        #expect(warnings(simulator) == 1)
    }

    @Test func leavingTheForegroundRaisesTheTasksAssertionBeforeSuspensionAndComingBackDropsIt() throws {
        let simulator = BackgroundTaskSimulator()
        let upload = SafeBackgroundTask.begin("Upload", backend: simulator, holdsAssertionOnlyInBackground: true)
        simulator.advance(by: 10)
        simulator.enterBackground()
        #expect(simulator.outstanding.map(\.name) == ["Upload"])
        simulator.advance(by: 5)
        #expect(simulator.appState == .background)  // held: not suspended
        simulator.enterForeground()
        #expect(simulator.outstanding.isEmpty)
        #expect(upload.state == .running)
        simulator.enterBackground()
        #expect(simulator.outstanding.map(\.name) == ["Upload"])
        upload.end()
        simulator.advance(by: 1)
        #expect(simulator.outstanding.isEmpty)
        #expect(simulator.appState == .suspended)
        try simulator.expectEveryAssertionEndedOnce()
        try simulator.expectNoLeaks()
    }

    @Test func aTaskBegunInTheBackgroundHoldsItsAssertionAtOnce() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        let task = SafeBackgroundTask.begin("Save", backend: simulator, holdsAssertionOnlyInBackground: true)
        #expect(simulator.outstanding.map(\.name) == ["Save"])
        task.end()
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func anExpiryRunsTheCleanupAndEndsTheAssertionOnce() throws {
        let simulator = BackgroundTaskSimulator()
        let journal = HandlerJournal()
        let task = SafeBackgroundTask.begin(
            "Upload", backend: simulator, onExpiration: { journal.note("cancel upload") },
            holdsAssertionOnlyInBackground: true)
        simulator.enterBackground()
        simulator.advance(by: 60)
        #expect(journal.entries == ["cancel upload"])
        #expect(task.state == .expired)
        #expect(simulator.termination == nil)
        task.end()  // harmless after expiry
        try simulator.expectEveryAssertionEndedOnce()
        try simulator.expectNoLeaks()
    }

    @Test func aScopedTaskEndsItsAssertionWhenTheScopeEnds() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        do {
            let task = ScopedBackgroundTask("Scoped", backend: simulator, holdsAssertionOnlyInBackground: true)
            #expect(simulator.outstanding.map(\.name) == ["Scoped"])
            task.end()
        }
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func withBackgroundTaskInTheForegroundRaisesNothing() {
        let simulator = BackgroundTaskSimulator()
        let value = withBackgroundTask("Sync", backend: simulator, holdsAssertionOnlyInBackground: true) { 42 }
        #expect(value == 42)
        let passed = withBackgroundTask("Sync", backend: simulator, holdsAssertionOnlyInBackground: true) { task in
            task.state == .running
        }
        #expect(passed)
        #expect(simulator.assertionHistory.isEmpty)
    }

    @Test func anAsyncBodyIsCancelledWhenTimeRunsOutInTheBackground() async throws {
        let simulator = BackgroundTaskSimulator()
        let started = Locked(false)
        let work = Task { @MainActor in
            try await withBackgroundTask("Export", backend: simulator, holdsAssertionOnlyInBackground: true) {
                started.withLock { $0 = true }
                try await Task.sleep(nanoseconds: 60_000_000_000)
            }
        }
        _ = await waitUntil("the export to start") { started.value }
        #expect(simulator.outstanding.isEmpty)
        simulator.enterBackground()
        #expect(simulator.outstanding.map(\.name) == ["Export"])
        simulator.advance(by: 60)
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(simulator.termination == nil)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aDroppedTaskIsEndedOnceByTheSafetyNet() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        _ = SafeBackgroundTask.begin("Dropped", backend: simulator, holdsAssertionOnlyInBackground: true)
        #expect(
            simulator.safetyNetEnds.map(\.callSite.fileID) == ["BackgroundTaskKitTests/BackgroundOnlyFaceTests.swift"])
        #expect(simulator.outstanding.isEmpty)
        try simulator.expectEveryAssertionEndedOnce(allowingSafetyNet: true)
    }

    @Test func aBackendThatCannotTellTheStateHoldsTheAssertionFromTheStart() {
        let backend = NamesBackend()
        let task = SafeBackgroundTask.begin("Upload", backend: backend, holdsAssertionOnlyInBackground: true)
        #expect(backend.calls.value == ["begin Upload"])
        task.end()
        #expect(backend.calls.value == ["begin Upload", "end"])
    }

    @Test func theDefaultBackendIsUsedWhenNoneIsGiven() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        withBackgroundTaskBackend(simulator) {
            SafeBackgroundTask.begin("Default", holdsAssertionOnlyInBackground: true).end()
        }
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Default"])
    }
}

/// The unlimited backend, noting each begin's name and each end; it cannot tell the app's state.
private final class NamesBackend: BackgroundTaskBackend {
    let calls = Locked<[String]>([])
    private let system = UnlimitedBackend()

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        calls.withLock { $0.append("begin \(name ?? "")") }
        return system.beginBackgroundTask(named: name, expirationHandler: expirationHandler)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        calls.withLock { $0.append("end") }
        system.endBackgroundTask(identifier)
    }

    var backgroundTimeRemaining: TimeInterval? { system.backgroundTimeRemaining }
}
