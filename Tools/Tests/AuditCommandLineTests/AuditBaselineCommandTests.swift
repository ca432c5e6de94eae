import AuditCommandLine
import Foundation
import Testing

/// `bgtask audit --write-baseline FILE` and `--baseline FILE`: adopt the audit on a code base with
/// findings, and fail only on new ones.
@MainActor
struct AuditBaselineCommandTests {
    /// BT001 and BT003 on line 2.
    private static let legacy = """
        func upload() {
            let task = UIApplication.shared.beginBackgroundTask(withName: "Upload")
            Uploader.start { UIApplication.shared.endBackgroundTask(task) }
        }

        """

    /// BT001 and BT002: a new, unnamed raw task.
    private static let added = """

        func refresh() {
            var task = UIBackgroundTaskIdentifier.invalid
            task = UIApplication.shared.beginBackgroundTask {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
            Feed.refresh(endingTask: task)
        }

        """

    /// A folder with `App/Upload.swift`, run from inside it so that paths are relative; removed
    /// afterwards.
    private func withProject(_ body: (_ folder: String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-baseline-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/App", withIntermediateDirectories: true)
        try write(Self.legacy, to: folder + "/App/Upload.swift")
        try await body(folder)
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: - Writing

    @Test func writeBaselineWritesTodaysFindingsAndExitsZero() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            let result = await BGTaskAudit.run(["--write-baseline", file, folder + "/./App"])
            #expect(result.exitStatus == 0)
            #expect(result.standardOutput == "Wrote a baseline of 2 findings in 1 file to \(file).\n")
            #expect(result.standardError.isEmpty)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == 1)
            let entries = try #require(object["findings"] as? [[String: Any]])
            #expect(entries.map { $0["rule"] as? String } == ["BT001", "BT003"])
            #expect(entries.allSatisfy { $0["path"] as? String == folder + "/App/Upload.swift" })
            #expect(entries.allSatisfy { $0["function"] as? String == "upload" })
            #expect(
                entries.first?["code"] as? String
                    == #"let task = UIApplication.shared.beginBackgroundTask(withName: "Upload")"#)
            #expect(entries.allSatisfy { $0["line"] == nil })
        }
    }

    @Test func aBaselineIsNotWrittenWhenANamedPathCannotBeRead() async throws {
        try await withProject { folder in
            #expect(mkfifo(folder + "/Pipe.swift", 0o644) == 0)
            let file = folder + "/baseline.json"
            let result = await BGTaskAudit.run(["--write-baseline", file, folder + "/App", folder + "/Pipe.swift"])
            #expect(result.exitStatus == 2)
            #expect(result.standardError.contains("error: cannot read \(folder)/Pipe.swift"))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    // MARK: - Comparing

    @Test func onlyFindingsAddedSinceTheBaselineAreReported() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            #expect(await BGTaskAudit.run(["--write-baseline", file, folder]).exitStatus == 0)
            let clean = await BGTaskAudit.run(["--baseline", file, folder])
            #expect(clean.exitStatus == 0)
            #expect(
                clean.standardOutput
                    == "Audited 1 file: 0 findings (0 errors, 0 warnings, 0 notes), "
                    + "0 suppressed, 2 baselined, 0 skipped, 1 suspected not shown (--level suspected).\n"
            )
            #expect(clean.standardError.isEmpty)

            try write(Self.legacy + Self.added, to: folder + "/App/Upload.swift")
            let result = await BGTaskAudit.run(["--baseline", file, folder])
            #expect(result.exitStatus == 1)
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("\(folder)/App/Upload.swift:8:33: warning: [BT001]"))
            #expect(lines[1].hasPrefix("\(folder)/App/Upload.swift:8:33: note: [BT002]"))
            #expect(
                lines[2]
                    == "Audited 1 file: 2 findings (0 errors, 1 warning, 1 note), 0 suppressed, 2 baselined, 0 skipped, "
                    + "2 suspected not shown (--level suspected)."
            )
        }
    }

    @Test func insertingLinesAboveABaselinedFindingKeepsItBaselined() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            #expect(await BGTaskAudit.run(["--write-baseline", file, folder]).exitStatus == 0)
            let moved =
                "import UIKit\n\n// Uploads.\n"
                + Self.legacy.replacingOccurrences(of: "    let task", with: "\tlet  task")
            try write(moved, to: folder + "/App/Upload.swift")
            let result = await BGTaskAudit.run(["--baseline", file, folder])
            #expect(result.exitStatus == 0)
            #expect(
                result.standardOutput.hasSuffix(
                    "0 findings (0 errors, 0 warnings, 0 notes), 0 suppressed, 2 baselined, 0 skipped, "
                        + "1 suspected not shown (--level suspected).\n"))
        }
    }

    @Test func baselinePathsAreKeptAsGivenWithoutDotPartsOrDoubledSlashes() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            #expect(await BGTaskAudit.run(["--write-baseline", file, folder + "/./App/"]).exitStatus == 0)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains(#""path" : "\#(folder)/App/Upload.swift""#))
            // The same files reached through another spelling of the folder still match.
            #expect(await BGTaskAudit.run(["--baseline", file, folder + "/App"]).exitStatus == 0)
        }
    }

    @Test func entriesThatNoLongerMatchAreNotedButDoNotFail() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            #expect(await BGTaskAudit.run(["--write-baseline", file, folder]).exitStatus == 0)
            let fixed = """
                func upload() {
                    let task = SafeBackgroundTask.begin("Upload") { Uploader.cancel() }
                    Uploader.start { task.end() }
                }

                """
            try write(fixed, to: folder + "/App/Upload.swift")
            let result = await BGTaskAudit.run(["--baseline", file, folder])
            #expect(result.exitStatus == 0)
            #expect(result.standardError == "note: 2 baseline entries no longer match; rewrite with --write-baseline\n")
            #expect(result.standardOutput.hasSuffix("0 suppressed, 0 baselined, 0 skipped.\n"))
        }
    }

    @Test func jsonOutputOmitsBaselinedFindingsAndCountsThem() async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            #expect(await BGTaskAudit.run(["--write-baseline", file, folder]).exitStatus == 0)
            try write(Self.legacy + Self.added, to: folder + "/App/Upload.swift")
            let result = await BGTaskAudit.run(["--format", "json", "--baseline", file, folder])
            #expect(result.exitStatus == 1)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.map { $0["rule"] as? String } == ["BT001", "BT002"])
            let summary = try #require(object["summary"] as? [String: Int])
            #expect(summary["baselined"] == 2)
            #expect(summary["baselineUnmatched"] == 0)
            #expect(summary["findings"] == 2)
        }
    }

    // MARK: - Errors

    @Test(
        "A missing, unreadable or malformed baseline exits 2 with what is wrong",
        arguments: [
            (nil, "error: cannot read baseline BASELINE: no such file\n"),
            ("{ not json", "error: BASELINE is not a bgtask audit baseline: not JSON\n"),
            (#"{"schemaVersion": 1}"#, "error: BASELINE is not a bgtask audit baseline: missing key 'findings'\n"),
        ] as [(String?, String)]
    )
    func aBadBaselineExitsTwo(_ contents: String?, _ message: String) async throws {
        try await withProject { folder in
            let file = folder + "/baseline.json"
            if let contents { try write(contents, to: file) }
            let result = await BGTaskAudit.run(["--baseline", file, folder])
            #expect(result.exitStatus == 2)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError == message.replacingOccurrences(of: "BASELINE", with: file))
        }
    }

    @Test func baselineAndWriteBaselineTogetherIsAUsageError() async {
        let result = await BGTaskAudit.run(["--baseline", "a.json", "--write-baseline", "b.json", "Sources"])
        #expect(result.exitStatus == 2)
        #expect(result.standardError.hasPrefix("error: use either --baseline or --write-baseline, not both\n"))
    }
}
