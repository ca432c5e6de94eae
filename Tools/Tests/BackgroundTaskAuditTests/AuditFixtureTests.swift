import BackgroundTaskAudit
import Testing

/// The fixture corpus: every rule's positives are reported on exactly the expected lines, and its
/// negatives (correct code that looks similar) are not reported by any rule.
// Serialized: each case is synchronous CPU work on the shared cooperative pool, which other
// suites (the promise checker's async steps) need too.
@Suite(.serialized)
struct AuditFixtureTests {
    @Test("Each fixture file yields exactly the findings its expect comments list", arguments: Fixture.all)
    func fixtureYieldsExactlyTheExpectedFindings(_ fixture: Fixture) throws {
        let source = try fixture.source()
        let expected = Fixture.expectations(in: source)
        let actual = Set(fixture.findings(in: source).map { "\($0.location.line) \($0.ruleID)" })
        #expect(actual.subtracting(expected).sorted() == [], "reported but not expected")
        #expect(expected.subtracting(actual).sorted() == [], "expected but not reported")
    }

    @Test(
        "The code model reports nothing on a clean fixture at its default level",
        arguments: Fixture.all.filter { !$0.isFlagged })
    func codeModelLeavesCleanFixturesClean(_ fixture: Fixture) throws {
        let findings = fixture.findings(in: try fixture.source(), engine: .codeModel)
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
