import AuditCommandLine
import BackgroundTaskAudit
import Testing

/// `bgtask audit --explain BTnnn`: a rule's long explanation, or a usage error.
@MainActor
struct AuditExplainCommandTests {
    @Test("--explain prints the rule's explanation and exits 0", arguments: AuditRule.all.map(\.id))
    func explainPrintsTheRulesExplanation(_ id: String) async throws {
        let result = await BGTaskAudit.run(["--explain", id])
        #expect(result.exitStatus == 0)
        #expect(result.standardError.isEmpty)
        let rule = try #require(AuditRule.withID(id))
        #expect(result.standardOutput == rule.explanation)
        #expect(result.standardOutput.hasPrefix("\(id) (\(rule.severity.rawValue)): \(rule.summary)\n"))
        #expect(result.standardOutput.contains("BEFORE (Swift):"))
        #expect(result.standardOutput.hasSuffix("Read more: Documentation/Audit.md#\(rule.documentationAnchor)\n"))
    }

    @Test func theRuleIDIsCaseInsensitive() async {
        let lower = await BGTaskAudit.run(["--explain", "bt004"])
        let upper = await BGTaskAudit.run(["--explain", "BT004"])
        #expect(lower.exitStatus == 0)
        #expect(lower == upper)
    }

    @Test func anUnknownRuleIsAUsageErrorListingTheValidIDs() async {
        let result = await BGTaskAudit.run(["--explain", "BT099"])
        #expect(result.exitStatus == 2)
        #expect(result.standardOutput.isEmpty)
        let ids = AuditRule.all.map(\.id).joined(separator: ", ")
        #expect(result.standardError.hasPrefix("error: unknown rule 'BT099' (use one of \(ids))\n"))
        #expect(ids.hasPrefix("BT001, BT002"))
        #expect(result.standardError.contains("bgtask-audit --help"))
    }

    @Test func explainWithoutAnIDOrWithAPathIsAUsageError() async {
        let missing = await BGTaskAudit.run(["--explain"])
        #expect(missing.exitStatus == 2)
        #expect(missing.standardError.hasPrefix("error: --explain needs a value\n"))
        let withPath = await BGTaskAudit.run(["--explain", "BT001", "Sources"])
        #expect(withPath.exitStatus == 2)
        #expect(withPath.standardError.hasPrefix("error: --explain takes a rule id and no PATH\n"))
    }

    @Test func theAuditHelpListsTheNewOptions() async {
        let help = await BGTaskAudit.run(["--help"])
        #expect(help.exitStatus == 0)
        for option in ["--explain ID", "--baseline FILE", "--write-baseline FILE"] {
            #expect(help.standardOutput.contains(option))
        }
    }
}
