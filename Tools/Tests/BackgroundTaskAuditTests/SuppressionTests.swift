import BackgroundTaskAudit
import Testing

/// `bgtask:ignore` comments silence exactly the rules they name, on their line or the next.
struct SuppressionTests {
    private let auditor = Auditor.tokenRules()

    private func rules(_ source: String, path: String = "Sample.swift") -> [String] {
        auditor.audit(source: source, path: path).map { "\($0.location.line) \($0.ruleID)" }
    }

    private let unnamedRaw = """
        func f() {
            let task = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
            use(task)
        }
        """

    @Test("Without a suppression the raw, unnamed, handler-less call has three findings")
    func unsuppressedCallHasThreeFindings() {
        #expect(rules(unnamedRaw) == ["2 BT001", "2 BT002", "2 BT003"])
    }

    @Test("A comment on the line above silences the named rules only")
    func commentAboveSilencesNamedRules() {
        let source = unnamedRaw.replacingOccurrences(
            of: "    let task",
            with: "    // bgtask:ignore BT001, BT003\n    let task"
        )
        #expect(rules(source) == ["3 BT002"])
    }

    @Test("A trailing comment silences its own line, not the next")
    func trailingCommentSilencesItsLine() {
        let source = """
            func f() {
                let a = UIApplication.shared.beginBackgroundTask(withName: "A", expirationHandler: nil)  // bgtask:ignore BT001 BT003
                let b = UIApplication.shared.beginBackgroundTask(withName: "B", expirationHandler: nil)
                use(a, b)
            }
            """
        #expect(rules(source) == ["3 BT001", "3 BT003"])
    }

    @Test("A bare bgtask:ignore silences every rule on the line")
    func bareIgnoreSilencesEverything() {
        let source = unnamedRaw.replacingOccurrences(of: "nil)", with: "nil)  // bgtask:ignore")
        #expect(rules(source) == [])
    }

    @Test("Objective-C block comments suppress too, and other ids do not")
    func objectiveCBlockCommentSuppresses() {
        let source = """
            - (void)f {
                UIBackgroundTaskIdentifier t = [app beginBackgroundTaskWithName:@"A" expirationHandler:nil]; /* bgtask:ignore BT003 */
                /* bgtask:ignore BT009 */
                UIBackgroundTaskIdentifier u = [app beginBackgroundTaskWithName:@"B" expirationHandler:nil];
            }
            """
        #expect(rules(source, path: "Sample.m") == ["2 BT001", "4 BT001", "4 BT003"])
    }

    @Test("The report counts what was suppressed")
    func reportCountsSuppressions() async throws {
        let folder = try TemporaryFolder()
        try folder.write("A.swift", unnamedRaw.replacingOccurrences(of: "nil)", with: "nil)  // bgtask:ignore BT002"))
        let report = try await auditor.audit(paths: [folder.path])
        #expect(report.suppressedCount == 1)
        #expect(report.findings.map(\.ruleID) == ["BT001", "BT003"])
    }
}
