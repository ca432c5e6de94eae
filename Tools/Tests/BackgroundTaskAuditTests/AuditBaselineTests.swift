import BackgroundTaskAudit
import Foundation
import Testing

/// `AuditBaseline`: fingerprints that survive line moves, matching, and the JSON file.
struct AuditBaselineTests {
    private static func finding(
        _ rule: String,
        _ path: String,
        line: Int,
        function: String? = "upload"
    ) -> Finding {
        Finding(
            ruleID: rule,
            severity: .warning,
            path: path,
            location: SourceLocation(line: line, column: 5),
            function: function,
            message: "Line \(line)."
        )
    }

    // MARK: - Fingerprints

    @Test func codeIsTheLineWithWhitespaceCollapsed() {
        #expect(AuditBaseline.normalizedCode("\t  let  task =\tapp.begin( )  \r") == "let task = app.begin( )")
        #expect(AuditBaseline.normalizedCode("   ") == "")
    }

    @Test(
        "Paths lose `.` parts and doubled slashes, and keep `..` and a leading slash",
        arguments: [
            ("./Sources//App.swift", "Sources/App.swift"),
            ("Sources/./App.swift", "Sources/App.swift"),
            ("../App/Up.m", "../App/Up.m"),
            ("/tmp/./x//Up.m", "/tmp/x/Up.m"),
            ("App.swift", "App.swift"),
        ]
    )
    func pathsAreNormalized(_ path: String, _ expected: String) {
        #expect(AuditBaseline.normalizedPath(path) == expected)
    }

    @Test func identicalFindingsAreNumberedInFileOrderAndEntriesAreSorted() {
        let findings = [
            Self.finding("BT008", "B.swift", line: 3),
            Self.finding("BT001", "B.swift", line: 9),
            Self.finding("BT008", "B.swift", line: 12),
            Self.finding("BT001", "A.swift", line: 1, function: nil),
        ]
        let code = [
            3: "guard let self else { return }", 9: "app.beginBackgroundTask()", 12: "guard let self else {  return }",
        ]
        let baseline = AuditBaseline(findings: findings) { code[$0.location.line] ?? "x" }
        #expect(
            baseline.entries == [
                AuditBaseline.Entry(rule: "BT001", path: "A.swift", function: nil, code: "x"),
                AuditBaseline.Entry(
                    rule: "BT001", path: "B.swift", function: "upload", code: "app.beginBackgroundTask()"),
                AuditBaseline.Entry(
                    rule: "BT008", path: "B.swift", function: "upload", code: "guard let self else { return }",
                    occurrence: 0),
                AuditBaseline.Entry(
                    rule: "BT008", path: "B.swift", function: "upload", code: "guard let self else { return }",
                    occurrence: 1),
            ])
    }

    // MARK: - Matching

    @Test func compareSeparatesNewFindingsFromBaselinedOnesAndListsUnmatchedEntries() {
        let old = [Self.finding("BT001", "A.swift", line: 2), Self.finding("BT003", "A.swift", line: 2)]
        let baseline = AuditBaseline(findings: old) { _ in "let t = begin()" }
        // The code moved down three lines, BT003 was fixed, and a second identical line was added.
        let today = [Self.finding("BT001", "A.swift", line: 5), Self.finding("BT001", "A.swift", line: 9)]
        let comparison = baseline.compare(today) { _ in "let t = begin()" }
        #expect(comparison.baselined == [today[0]])
        #expect(comparison.new == [today[1]])
        #expect(comparison.unmatched.map(\.rule) == ["BT003"])
    }

    @Test func aChangedLineOrFunctionIsNew() {
        let baseline = AuditBaseline(findings: [Self.finding("BT001", "A.swift", line: 2)]) { _ in "begin()" }
        let edited = baseline.compare([Self.finding("BT001", "A.swift", line: 2)]) { _ in "begin(name)" }
        #expect(edited.new.count == 1)
        let renamed = baseline.compare([Self.finding("BT001", "A.swift", line: 2, function: "send")]) { _ in "begin()" }
        #expect(renamed.new.count == 1)
        #expect(renamed.unmatched.count == 1)
    }

    @Test func applyingReadsTheFlaggedLinesFromDisk() async throws {
        let folder = try TemporaryFolder()
        let source = """
            func upload() {
                let task = UIApplication.shared.beginBackgroundTask(withName: "Upload")
                Uploader.start { UIApplication.shared.endBackgroundTask(task) }
            }

            """
        let path = try folder.write("Upload.swift", source)
        let before = try await Auditor().audit(paths: [path])
        #expect(before.findings.count == 2)
        let baseline = AuditBaseline(report: before)
        #expect(
            baseline.entries.allSatisfy { $0.code.hasPrefix("let task = UIApplication.shared.beginBackgroundTask(") })

        try folder.write("Upload.swift", "// A comment\n\n\r\n" + source.replacingOccurrences(of: "\n", with: "\r\n"))
        let after = try await Auditor().audit(paths: [path]).applying(baseline)
        #expect(after.findings == [])
        #expect(after.baselined?.count == 2)
        #expect(after.unmatchedBaselineEntries == [])
        #expect(
            after.summary.hasSuffix(
                ": 0 findings (0 errors, 0 warnings, 0 notes), 0 suppressed, 2 baselined, 0 skipped, "
                    + "1 suspected not shown (--level suspected)."))
        #expect(after.unmatchedBaselineNote == "")
    }

    @Test func theSummaryCountsBaselinedFindingsOnlyWhenABaselineWasApplied() {
        let report = AuditReport(findings: [], suppressedCount: 0, filesScanned: 1, skipped: [])
        #expect(!report.summary.contains("baselined"))
        var applied = report.applying(AuditBaseline(entries: []))
        #expect(applied.summary.hasSuffix("0 suppressed, 0 baselined, 0 skipped."))
        applied.unmatchedBaselineEntries = [
            AuditBaseline.Entry(rule: "BT001", path: "A.swift", function: nil, code: "x")
        ]
        #expect(
            applied.unmatchedBaselineNote == "note: 1 baseline entry no longer matches; rewrite with --write-baseline\n"
        )
    }

    // MARK: - File

    @Test func theJSONFileIsPrettySortedAndRoundTrips() throws {
        let baseline = AuditBaseline(entries: [
            AuditBaseline.Entry(rule: "BT002", path: "B.m", function: "-[Up start]", code: "x = [app begin];"),
            AuditBaseline.Entry(rule: "BT001", path: "A.swift", function: nil, code: "begin(\"a/b\")"),
        ])
        let json = baseline.json()
        #expect(
            json == """
                {
                  "findings" : [
                    {
                      "code" : "begin(\\"a/b\\")",
                      "function" : null,
                      "occurrence" : 0,
                      "path" : "A.swift",
                      "rule" : "BT001"
                    },
                    {
                      "code" : "x = [app begin];",
                      "function" : "-[Up start]",
                      "occurrence" : 0,
                      "path" : "B.m",
                      "rule" : "BT002"
                    }
                  ],
                  "schemaVersion" : 1
                }

                """)
        #expect(try AuditBaseline(json: Data(json.utf8), path: "b.json") == baseline)
    }

    @Test func aHandWrittenEntryMayLeaveOutFunctionAndOccurrence() throws {
        let json = #"{"schemaVersion": 1, "findings": [{"rule": "BT001", "path": "./A.swift", "code": " begin() "}]}"#
        let baseline = try AuditBaseline(json: Data(json.utf8), path: "b.json")
        #expect(
            baseline.entries == [AuditBaseline.Entry(rule: "BT001", path: "A.swift", function: nil, code: "begin()")])
    }

    @Test(
        "A file that is not a baseline is refused with what is wrong",
        arguments: [
            ("not json", AuditBaselineError.Code.malformed, "not JSON"),
            (#"{"findings": []}"#, .malformed, "missing key 'schemaVersion'"),
            (#"{"schemaVersion": 1}"#, .malformed, "missing key 'findings'"),
            (#"{"schemaVersion": 1, "findings": [{"rule": 1}]}"#, .malformed, "wrong type at findings[0].rule"),
            (
                #"{"schemaVersion": 1, "findings": [{"rule": "BT001"}]}"#, .malformed,
                "missing key 'path' in findings[0]"
            ),
            (#"{"schemaVersion": 0, "findings": []}"#, .malformed, "schemaVersion"),
            (
                #"{"schemaVersion": 2, "findings": []}"#, .unsupportedVersion,
                "schema version 2; this bgtask reads version 1"
            ),
        ]
    )
    func malformedFilesAreRefused(_ text: String, _ code: AuditBaselineError.Code, _ detail: String) {
        #expect {
            try AuditBaseline(json: Data(text.utf8), path: "b.json")
        } throws: { error in
            guard let error = error as? AuditBaselineError else { return false }
            return error.code == code && error.detail.contains(detail) && error.path == "b.json"
        }
    }

    @Test func aMissingFileOrAFolderIsUnreadable() throws {
        let folder = try TemporaryFolder()
        #expect(throws: AuditBaselineError(code: .unreadable, path: folder.path + "/none.json", detail: "no such file"))
        {
            try AuditBaseline(contentsOf: folder.path + "/none.json")
        }
        #expect(throws: AuditBaselineError(code: .unreadable, path: folder.path, detail: "a folder")) {
            try AuditBaseline(contentsOf: folder.path)
        }
        #expect(
            AuditBaselineError(code: .unreadable, path: "b.json", detail: "no such file").description
                == "cannot read baseline b.json: no such file")
    }

    @Test func writeThenReadGivesTheSameBaseline() throws {
        let folder = try TemporaryFolder()
        let baseline = AuditBaseline(entries: [
            AuditBaseline.Entry(rule: "BT005", path: "A.m", function: "save", code: "_t = x;")
        ])
        try baseline.write(to: folder.path + "/baseline.json")
        #expect(try AuditBaseline(contentsOf: folder.path + "/baseline.json") == baseline)
        #expect(throws: AuditBaselineError.self) { try baseline.write(to: folder.path + "/no/such/folder/b.json") }
    }
}
