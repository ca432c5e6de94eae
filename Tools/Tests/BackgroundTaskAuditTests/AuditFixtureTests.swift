import BackgroundTaskAudit
import Testing

/// The fixture corpus: every rule's positives are reported on exactly the expected lines, and its
/// negatives (correct code that looks similar) are not reported by any rule.
// Serialized: each case is synchronous CPU work on the shared cooperative pool, which other
// suites (the promise checker's async steps) need too.
@Suite(.serialized)
struct AuditFixtureTests {
    @Test("The token rules yield exactly the findings each fixture file's expect comments list", arguments: Fixture.all)
    func fixtureYieldsExactlyTheExpectedFindings(_ fixture: Fixture) throws {
        let source = try fixture.source()
        let expected = Fixture.expectations(in: source)
        let actual = Set(fixture.findings(in: source, engine: .tokens).map { "\($0.location.line) \($0.ruleID)" })
        #expect(actual.subtracting(expected).sorted() == [], "reported but not expected")
        #expect(expected.subtracting(actual).sorted() == [], "expected but not reported")
    }

    @Test(
        "The default engine finds every positive of each fixture file with --level suspected",
        arguments: Fixture.all.filter(\.isFlagged))
    func defaultEngineFindsEveryPositiveWhenSuspectedIncluded(_ fixture: Fixture) throws {
        let source = try fixture.source()
        let expected = Fixture.expectations(in: source)
        let findings = fixture.findings(in: source, level: .suspected)
        // Found on its line, or by a finding of its rule whose chain names the line (a second end of BT007 is a link
        // of the chain that starts at the begin).
        let missed = expected.filter { expectation in
            let parts = expectation.split(separator: " ")
            let (line, rule) = (Int(parts[0]) ?? 0, String(parts[1]))
            return !findings.contains { finding in
                finding.ruleID == rule
                    && (finding.location.line == line || finding.message.contains("line \(line): "))
            }
        }
        #expect(missed.sorted() == [], "expected but not reported")
    }

    @Test(
        "The code model reports nothing on a clean fixture at its default level",
        arguments: Fixture.all.filter { !$0.isFlagged })
    func codeModelLeavesCleanFixturesClean(_ fixture: Fixture) throws {
        let findings = fixture.findings(in: try fixture.source())
        #expect(findings.map { "\($0.location.line) \($0.ruleID)" } == [])
    }

    @Test("Every flagged file has at least three findings of its rule", arguments: Fixture.all.filter(\.isFlagged))
    func flaggedFileHasThreePositives(_ fixture: Fixture) throws {
        let source = try fixture.source()
        let positives = Fixture.expectations(in: source).filter { $0.hasSuffix(" \(fixture.rule)") }
        #expect(positives.count >= 3)
        #expect(Fixture.sampleCount(in: source) >= 3)
    }

    @Test(
        "Every clean file has at least three samples and expects nothing",
        arguments: Fixture.all.filter { !$0.isFlagged })
    func cleanFileHasThreeNegatives(_ fixture: Fixture) throws {
        let source = try fixture.source()
        #expect(Fixture.expectations(in: source).isEmpty)
        #expect(Fixture.sampleCount(in: source) >= 3)
    }
}
