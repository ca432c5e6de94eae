import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import Foundation
import Testing

/// A manager on the simulator's clocks, so ages and times in reports are virtual seconds.
@MainActor
func makeDiagnosedManager(
    _ simulator: BackgroundTaskSimulator,
    configure: (inout BackgroundTaskManager.Configuration) -> Void = { _ in }
) -> BackgroundTaskManager {
    var configuration = BackgroundTaskManager.Configuration()
    configuration.coalescesAssertions = false
    configure(&configuration)
    return BackgroundTaskManager(
        backend: simulator,
        configuration: configuration,
        schedule: { delay, work in simulator.schedule(after: delay, work) },
        now: { simulator.now },
        diagnostics: .init()
    )
}

@MainActor
struct LedgerTests {
    @Test func everyWayATaskEndsIsCountedAtItsCallSite() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator) { $0.maximumOutstandingTasks = 3 }
        func begin(_ name: String) throws -> SafeBackgroundTask {
            try manager.beginTask(name, fileID: "App/Sync.swift", line: 10, function: "sync()")
        }
        try begin("Ended").end()
        var forgotten: SafeBackgroundTask? = try begin("Forgotten")
        _ = forgotten
        forgotten = nil  // the safety net ends it
        let held = try begin("Held")
        simulator.advance(by: 4)
        let expiring = try begin("Expiring")
        let third = try begin("Third")
        #expect(throws: BackgroundTaskError.limitReached(limit: 3)) { try begin("Refused") }
        simulator.faults = [.notGranted(callingHandler: false)]
        held.end()
        #expect(throws: BackgroundTaskError.notGranted) { try begin("Not granted") }
        simulator.faults = []
        simulator.enterBackground()
        simulator.advance(by: 30)  // expires "Expiring" and "Third"
        #expect([expiring.state, third.state] == [.expired, .expired])

        let statistics = try #require(manager.diagnostics!.report().callSites.first)
        #expect(statistics.callSite == BackgroundTaskCallSite(fileID: "App/Sync.swift", line: 10, function: "sync()"))
        #expect(statistics.begun == 7)
        #expect(statistics.ended == 2)
        #expect(statistics.endedBySafetyNet == 1)
        #expect(statistics.expired == 2)
        #expect(statistics.refused == 1)
        #expect(statistics.notGranted == 1)
        #expect(statistics.outstanding == 0)
        #expect(statistics.oldestOutstandingAge == nil)
        #expect(statistics.names == ["Ended", "Forgotten", "Held", "Expiring", "Third", "Refused", "Not granted"])
        #expect(statistics.firstBeganAt == 0)
        #expect(statistics.lastBeganAt == 4)
    }

    @Test func outstandingTasksAndTheOldestAgeArePerCallSite() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let old = try manager.beginTask("Old", fileID: "App/A.swift", line: 1, function: "a()")
        simulator.advance(by: 10)
        let young = try manager.beginTask("Young", fileID: "App/A.swift", line: 1, function: "a()")
        let other = try manager.beginTask("Other", fileID: "App/B.swift", line: 2, function: "b()")
        simulator.advance(by: 5)
        let report = manager.diagnostics!.report()
        #expect(report.callSites.map(\.callSite.fileID) == ["App/A.swift", "App/B.swift"])
        #expect(report.callSites.map(\.outstanding) == [2, 1])
        #expect(report.callSites.map(\.oldestOutstandingAge) == [15, 5])
        #expect(report.outstandingTasks.map(\.name) == ["Old", "Young", "Other"])
        #expect(report.outstandingTasks.map(\.age) == [15, 5, 5])
        for task in [old, young, other] { task.end() }
    }

    @Test func theHighWaterMarkIsTheMostTasksRunningAtOnce() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        let first = try (1...5).map { try manager.beginTask("Burst \($0)") }
        for task in first { task.end() }
        let second = try (1...3).map { try manager.beginTask("Trickle \($0)") }
        #expect(manager.diagnostics!.report().outstandingHighWaterMark == 5)
        for task in second { task.end() }
        #expect(manager.diagnostics!.report().outstandingHighWaterMark == 5)
    }

    @Test func namesPerCallSiteAreBounded() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        for index in 1...50 {
            try manager.beginTask("Write \(index)", fileID: "C.swift", line: 1, function: "w()").end()
        }
        #expect(manager.diagnostics!.report().callSites.first?.names.count == CallSiteStatistics.maximumNames)
        #expect(manager.diagnostics!.report().callSites.first?.begun == 50)
    }

    // MARK: - The JSON encoding

    @Test func theJSONEncodingMatchesTheDocumentedExample() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = makeDiagnosedManager(simulator)
        try manager.beginTask("Upload photos", fileID: "App/Uploader.swift", line: 42, function: "upload(_:)").end()
        simulator.advance(by: 3)
        let saving = try manager.beginTask("Save library", fileID: "App/Library.swift", line: 7, function: "save()")
        simulator.advance(by: 12)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(manager.diagnostics!.report())
        // Compared as JSON values: the same keys and values, whatever the whitespace.
        let encoded = try JSONSerialization.jsonObject(with: json) as? NSDictionary
        let documented = try JSONSerialization.jsonObject(with: Data(try documentedExample().utf8)) as? NSDictionary
        #expect(encoded != nil)
        #expect(encoded == documented)
        let decoded = try JSONDecoder().decode(BackgroundTaskReport.self, from: Data(try documentedExample().utf8))
        #expect(decoded == manager.diagnostics!.report())
        #expect(decoded.version == BackgroundTaskReport.currentVersion)
        saving.end()
    }

    /// The first ```json block of Documentation/Diagnostics.md.
    private func documentedExample() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Documentation/Diagnostics.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }
}
