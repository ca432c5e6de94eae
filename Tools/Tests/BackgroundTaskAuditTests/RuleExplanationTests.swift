import BackgroundTaskAudit
import Foundation
import Testing

/// `AuditRule.explanation`, `documentationAnchor` and `helpURI`: the long texts behind
/// `bgtask audit --explain` and the links to the rules' sections of Documentation/Audit.md.
struct RuleExplanationTests {
    private static let auditDocument = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Documentation/Audit.md")

    // MARK: - Explanations

    @Test("Every rule's explanation has every section", arguments: AuditRule.all)
    func everyExplanationHasEverySection(_ rule: AuditRule) {
        let text = rule.explanation
        #expect(text.hasPrefix("\(rule.id) (\(rule.severity.rawValue)): \(rule.summary)\n\n"))
        for heading in [
            "WHAT IT FINDS:", "ON A DEVICE:", "BEFORE (Swift):", "AFTER (Swift):", "WHAT TO DO:", "BLIND SPOTS:",
        ] {
            #expect(text.contains("\n\(heading)\n") || text.contains("\n\n\(heading)\n"), "\(rule.id): \(heading)")
        }
        // BackgroundTaskKit's faces are Swift types: BT010 has no Objective-C form.
        #expect(text.contains("BEFORE (Objective-C):") == (rule.id != "BT010"))
        #expect(text.hasSuffix("\nRead more: Documentation/Audit.md#\(rule.documentationAnchor)\n"))
    }

    @Test func explanationsAreDistinctAndIndentTheirSections() {
        let texts = AuditRule.all.map(\.explanation)
        #expect(Set(texts).count == AuditRule.all.count)
        let bt006 = AuditRule.withID("BT006")?.explanation ?? ""
        #expect(bt006.contains("\n  __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;\n"))
    }

    @Test func aRuleThisLibraryDoesNotDefineGetsItsSummaryOnly() {
        let rule = AuditRule(id: "XX001", severity: .note, summary: "Something else")
        #expect(rule.explanation == "XX001 (note): Something else\n")
        #expect(rule.documentationAnchor == "xx001")
        #expect(rule.helpURI == "Documentation/Audit.md#xx001")
    }

    // MARK: - Links

    @Test func anchorsFollowTheRuleHeadingsOfTheAuditDocument() throws {
        let document = try String(contentsOf: Self.auditDocument, encoding: .utf8)
        let headings = document.split(separator: "\n").filter { $0.hasPrefix("### BT") }.map {
            String($0.dropFirst(4))
        }
        #expect(headings.count == AuditRule.all.count)
        let slugs = headings.map { heading in
            heading.lowercased().unicodeScalars
                .filter { $0 == " " || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
                .map(String.init).joined().replacingOccurrences(of: " ", with: "-")
        }
        #expect(AuditRule.all.map(\.documentationAnchor) == slugs)
        #expect(
            AuditRule.withID("BT008")?.documentationAnchor == "bt008--early-exit-between-begin-and-end-best-effort")
    }

    @Test func helpURIPointsAtTheRulesSection() throws {
        let rule = try #require(AuditRule.withID("BT004"))
        #expect(rule.helpURI == "Documentation/Audit.md#bt004--handler-that-does-not-end-the-task-synchronously")
        #expect(
            rule.helpURI(documentation: "https://example.com/Audit.md")
                == "https://example.com/Audit.md#bt004--handler-that-does-not-end-the-task-synchronously")
    }
}
