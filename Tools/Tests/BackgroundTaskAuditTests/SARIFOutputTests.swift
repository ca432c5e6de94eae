import BackgroundTaskAudit
import Foundation
import Testing

/// `--format sarif`: a SARIF 2.1.0 log that code-scanning services read.
struct SARIFOutputTests {
    private let report = AuditReport(
        findings: [
            Finding(
                ruleID: "BT004",
                severity: .error,
                path: "App/Upload Manager.swift",
                location: SourceLocation(line: 12, column: 9),
                function: "upload",
                message: "The expiration handler never ends the task."
            ),
            Finding(
                ruleID: "BT002",
                severity: .note,
                path: "App/Upload.swift",
                location: SourceLocation(line: 30, column: 5),
                function: nil,
                message: "Unnamed background task."
            ),
        ],
        suppressedCount: 0,
        filesScanned: 2,
        skipped: []
    )

    private func document() throws -> [String: Any] {
        let data = Data(report.sarif().utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theLogIsSARIF210WithOneRunOfTheTool() throws {
        let log = try document()
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "bgtask audit")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == AuditRule.all.map(\.id))
        let bt004 = try #require(rules.first { $0["id"] as? String == "BT004" })
        #expect((bt004["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let anchor = "bt004--handler-that-does-not-end-the-task-synchronously"
        #expect(bt004["helpUri"] as? String == "Documentation/Audit.md#\(anchor)")
    }

    @Test func eachFindingIsAResultWithItsRuleLevelMessageAndLocation() throws {
        let log = try document()
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let first = results[0]
        #expect(first["ruleId"] as? String == "BT004")
        #expect(first["ruleIndex"] as? Int == AuditRule.all.firstIndex { $0.id == "BT004" })
        #expect(first["level"] as? String == "error")
        #expect(
            (first["message"] as? [String: Any])?["text"] as? String == "The expiration handler never ends the task.")
        let location = try #require(
            ((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/Upload%20Manager.swift")
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 12)
        #expect((location["region"] as? [String: Any])?["startColumn"] as? Int == 9)
        #expect(results[1]["level"] as? String == "note")
    }
}
