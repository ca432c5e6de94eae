import BackgroundTaskAudit
import Foundation
import Testing

/// The text and JSON forms of a report.
// Serialized: each case is synchronous CPU work on the shared cooperative pool, which other
// suites (the promise checker's async steps) need too.
@Suite(.serialized)
struct ReportFormatTests {
    private let report = AuditReport(
        findings: [
            Finding(
                ruleID: "BT004",
                severity: .error,
                path: "App/Upload.swift",
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
        suppressedCount: 1,
        filesScanned: 3,
        skipped: [SkippedFile(path: "App/Blob.swift", reason: .binary, detail: "binary file (contains NUL bytes)")]
    )

    @Test("Text output has one Xcode-style line per finding and a summary line")
    func textOutputIsXcodeStyle() {
        #expect(
            report.text == """
                App/Upload.swift:12:9: error: [BT004] The expiration handler never ends the task.
                App/Upload.swift:30:5: note: [BT002] Unnamed background task.
                Audited 3 files: 2 findings (1 error, 0 warnings, 1 note), 1 suppressed, 1 skipped.

                """
        )
        #expect(report.skipNotes == "note: skipped App/Blob.swift: binary file (contains NUL bytes)\n")
    }

    @Test("JSON output has exactly the documented keys, version 1")
    func jsonOutputHasTheDocumentedSchema() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any]
        )
        #expect(Set(object.keys) == ["schemaVersion", "summary", "findings", "skipped", "rules"])
        #expect(object["schemaVersion"] as? Int == 1)
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(
            summary == [
                "filesScanned": 3, "filesSkipped": 1, "findings": 2, "errors": 1, "warnings": 0, "notes": 1,
                "suppressed": 1,
            ]
        )
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        for finding in findings {
            #expect(
                Set(finding.keys) == ["rule", "severity", "path", "line", "column", "function", "message", "certainty"])
            #expect(finding["certainty"] as? String == "proven")
        }
        #expect(findings[0]["function"] as? String == "upload")
        #expect(findings[1]["function"] is NSNull)
        let skipped = try #require(object["skipped"] as? [[String: String]])
        #expect(
            skipped == [["path": "App/Blob.swift", "reason": "binary", "detail": "binary file (contains NUL bytes)"]])
        let rules = try #require(object["rules"] as? [[String: String]])
        #expect(rules.map { $0["id"] } == (1...14).map { String(format: "BT%03d", $0) })
    }

    @Test("Every rule has an id, a severity and a summary; severities are ordered")
    func rulesAreDescribed() {
        #expect(AuditRule.all.map(\.id) == (1...14).map { String(format: "BT%03d", $0) })
        #expect(AuditRule.all.allSatisfy { !$0.summary.isEmpty })
        #expect(AuditRule.withID("bt004")?.severity == .error)
        #expect(Severity.note < .warning && Severity.warning < .error)
    }

    @Test(
        "Every finding's message says what happens and names a face of the package its language can call",
        arguments: AuditEngine.allCases)
    func messagesNameAFace(engine: AuditEngine) throws {
        for fixture in Fixture.all where fixture.isFlagged {
            for finding in fixture.findings(in: try fixture.source(), engine: engine) {
                // BGTaskScheduler's rules: SafeTaskScheduler in Swift; Objective-C has no face for it, only the fix.
                let scheduler = ["BT011", "BT012", "BT013", "BT014"].contains(finding.ruleID)
                let faces =
                    SourceLanguage(path: finding.path) == .objectiveC
                    ? (scheduler
                        ? ["setTaskCompletedWithSuccess:", "expirationHandler", "didFinishLaunching", "Info.plist"]
                        : ["BTKBackgroundTask"])
                    : scheduler
                        ? ["SafeTaskScheduler"]
                        : ["SafeBackgroundTask", "ScopedBackgroundTask", "withBackgroundTask", "BackgroundTaskManager"]
                #expect(faces.contains { finding.message.contains($0) }, "\(finding.ruleID): \(finding.message)")
            }
        }
    }
}
