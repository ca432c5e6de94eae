import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// A manager's diagnostics are opt-in: created with them, it reports and tells observers; created
/// without, it has none, and still lists its running tasks from its own list.
@MainActor
struct ManagerDiagnosticsTests {
    @Test func aManagerCreatedWithoutDiagnosticsHasNoneAndStillListsItsRunningTasks() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator)
        #expect(manager.diagnostics == nil)
        let upload = try manager.beginTask("Upload", fileID: "App/Upload.swift", line: 3, function: "upload()")
        simulator.advance(by: 2)
        let outstanding = manager.outstandingTasks
        #expect(outstanding.map(\.name) == ["Upload"])
        #expect(outstanding.map(\.age) == [2])
        #expect(
            outstanding.first?.callSite
                == BackgroundTaskCallSite(fileID: "App/Upload.swift", line: 3, function: "upload()"))
        upload.end()
        #expect(manager.outstandingTasks.isEmpty)
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func aManagerCreatedWithDiagnosticsCountsItsTasksAndTellsObservers() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator, diagnostics: .init(staleTaskAge: nil))
        let diagnostics = try #require(manager.diagnostics)
        let log = EventLog()
        diagnostics.addObserver { log.record($0) }
        try manager.beginTask("Sync", fileID: "App/Sync.swift", line: 8, function: "sync()").end()
        let held = try manager.beginTask("Held", fileID: "App/Sync.swift", line: 9, function: "sync()")
        diagnostics.waitForObservers()
        #expect(log.kinds == [.began, .ended, .began])
        let report = diagnostics.report()
        #expect(report.callSites.map(\.callSite.line) == [8, 9])
        #expect(report.callSites.map(\.ended) == [1, 0])
        #expect(report.outstandingTasks.map(\.name) == ["Held"])
        #expect(diagnostics.outstandingTasks.map(\.taskNumber) == manager.outstandingTasks.map(\.taskNumber))
        held.end()
        simulator.advance(by: 1)
        try simulator.expectEveryAssertionEndedOnce()
    }

    @Test func eachAccessToAManagersDiagnosticsSeesTheSameLedgerAndObservers() throws {
        let manager = BackgroundTaskManager(backend: .unlimited, diagnostics: .init())
        let heard = Locked(0)
        try #require(manager.diagnostics).addObserver { _ in heard.withLock { $0 += 1 } }
        try manager.beginTask("One").end()
        try #require(manager.diagnostics).waitForObservers()
        #expect(heard.value == 2)  // began, ended: observed through another access's object
        #expect(try #require(manager.diagnostics).report().callSites.first?.ended == 1)
    }
}
