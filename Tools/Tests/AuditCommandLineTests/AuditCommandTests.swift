import AuditCommandLine
import Foundation
import Testing

/// `bgtask audit`: exit statuses, formats, `--allow`, `--fail-on` and usage errors.
@MainActor
struct AuditCommandTests {
    private static let raw = """
        func upload() {
            let task = UIApplication.shared.beginBackgroundTask(withName: "Upload")
            Uploader.start { UIApplication.shared.endBackgroundTask(task) }
        }

        """

    private static let correct = """
        func upload() {
            let task = SafeBackgroundTask.begin("Upload") { Uploader.cancel() }
            Uploader.start { task.end() }
        }

        """

    /// A folder with one file, removed afterwards.
    private func withFolder(
        _ files: [String: String],
        _ body: (String) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try await body(folder)
    }

    // MARK: - Exit status

    @Test("Clean sources exit 0 with only the summary line")
    func cleanSourcesExitZero() async throws {
        try await withFolder(["Upload.swift": Self.correct]) { folder in
            let result = await BGTaskAudit.run([folder])
            #expect(result.exitStatus == 0)
            #expect(
                result.standardOutput
                    == "Audited 1 file: 0 findings (0 errors, 0 warnings, 0 notes), 0 suppressed, 0 skipped.\n")
            #expect(result.standardError.isEmpty)
        }
    }

    @Test("Findings exit 1 and print path:line:column: severity: [rule] message")
    func findingsExitOne() async throws {
        try await withFolder(["App/Upload.swift": Self.raw]) { folder in
            let result = await BGTaskAudit.run([folder])
            #expect(result.exitStatus == 1)
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("\(folder)/App/Upload.swift:2:37: warning: [BT001] Raw beginBackgroundTask"))
            #expect(
                lines[1].hasPrefix(
                    "\(folder)/App/Upload.swift:2:37: error: [BT003] Nothing ends this background task when time runs out"
                ))
            #expect(lines[1].contains("line 2: it is begun without an expiration handler"))
            // A suspected BT008 waits for --level suspected: whether `Uploader.start` always calls back is not shown.
            #expect(
                lines[2]
                    == "Audited 1 file: 2 findings (1 error, 1 warning, 0 notes), 0 suppressed, 0 skipped, "
                    + "1 suspected not shown (--level suspected).")
        }
    }

    @Test("Findings in test code pass by default, counted in the summary; --include-tests shows and fails on them")
    func testCodeIsLeftOutUnlessIncluded() async throws {
        try await withFolder(["AppTests/UploadTests.swift": "import XCTest\n" + Self.raw]) { folder in
            let result = await BGTaskAudit.run([folder])
            #expect(result.exitStatus == 0)
            #expect(
                result.standardOutput
                    == "Audited 1 file: 0 findings (0 errors, 0 warnings, 0 notes), 0 suppressed, 0 skipped, "
                    + "2 in test code not shown (--include-tests).\n")
            let included = await BGTaskAudit.run(["--include-tests", folder])
            #expect(included.exitStatus == 1)
            #expect(included.standardOutput.contains("error: [BT003] In test code: Nothing ends this background task"))
        }
    }

    @Test(
        "--fail-on sets the lowest severity that fails the run",
        arguments: [("note", 1), ("warning", 1), ("error", 0), ("never", 0)]
    )
    func failOnSetsTheThreshold(_ threshold: String, _ status: Int32) async throws {
        // An unnamed task with a correct handler: BT001 (warning) and BT002 (note), no error.
        let source = """
            func f() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                Work.run(endingTask: task)
            }

            """
        try await withFolder(["F.swift": source]) { folder in
            let result = await BGTaskAudit.run(["--fail-on", threshold, folder])
            #expect(result.exitStatus == status)
            let errorOnly = await BGTaskAudit.run(["--fail-on", threshold, "--allow", "**", folder])
            #expect(errorOnly.exitStatus == (threshold == "note" ? 1 : 0))
        }
    }

    @Test("--allow silences BT001 for wrapper paths only")
    func allowSilencesWrapperPaths() async throws {
        let wrapper = """
            func start(_ cleanup: @escaping @MainActor @Sendable () -> Void, work: (@escaping () -> Void) -> Void) {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Wrapped") {
                    cleanup()
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                work {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }

            """
        try await withFolder(["Wrappers/Task.swift": wrapper, "App/Raw.swift": wrapper]) { folder in
            let result = await BGTaskAudit.run(["--allow", "Wrappers/*.swift", folder])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains("/App/Raw.swift:3:33: warning: [BT001]"))
            #expect(!result.standardOutput.contains("/Wrappers/Task.swift"))
            let both = await BGTaskAudit.run(["--allow", "Wrappers/*", "--allow", "App/*", folder])
            #expect(both.exitStatus == 0)
        }
    }

    @Test("JSON output carries the schema version, the summary and each finding")
    func jsonOutput() async throws {
        try await withFolder(["Upload.swift": Self.raw]) { folder in
            let result = await BGTaskAudit.run(["--format", "json", folder])
            #expect(result.exitStatus == 1)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            )
            #expect(object["schemaVersion"] as? Int == 1)
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.map { $0["rule"] as? String } == ["BT001", "BT003"])
            #expect(findings.first?["line"] as? Int == 2)
            #expect(findings.first?["function"] as? String == "upload")
        }
    }

    @Test("Skipped files are noted on standard error and do not change the exit status")
    func skippedFilesAreNoted() async throws {
        try await withFolder(["Good.swift": Self.correct]) { folder in
            try Data([0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: folder + "/Blob.m"))
            let result = await BGTaskAudit.run([folder])
            #expect(result.exitStatus == 0)
            #expect(result.standardError == "note: skipped \(folder)/Blob.m: binary file (contains NUL bytes)\n")
            #expect(result.standardOutput.hasSuffix("0 suppressed, 1 skipped.\n"))
        }
    }

    // MARK: - Errors

    @Test("A path that does not exist exits 2")
    func missingPathExitsTwo() async {
        let result = await BGTaskAudit.run(["/no/such/folder"])
        #expect(result.exitStatus == 2)
        #expect(result.standardError == "error: no such file or folder: /no/such/folder\n")
    }

    @Test("A file named on the command line that cannot be read as source exits 2; inside a folder it is only noted")
    func namedUnreadableFileExitsTwo() async throws {
        try await withFolder(["Good.swift": Self.correct]) { folder in
            #expect(mkfifo(folder + "/Pipe.swift", 0o644) == 0)
            let named = await BGTaskAudit.run([folder + "/Good.swift", folder + "/Pipe.swift"])
            #expect(named.exitStatus == 2)
            #expect(named.standardError.contains("error: cannot read \(folder)/Pipe.swift: "))
            let walked = await BGTaskAudit.run([folder])
            #expect(walked.exitStatus == 0)
            #expect(walked.standardError.hasPrefix("note: skipped \(folder)/Pipe.swift: "))
            #expect(!walked.standardError.contains("error:"))
        }
    }

    @Test(
        "Bad audit arguments print usage and exit 2",
        arguments: [
            [],
            ["--format", "yaml", "."],
            ["--format"],
            ["--fail-on", "fatal", "."],
            ["--allow"],
            ["--max-file-size", "-3", "."],
            ["--frobnicate", "."],
        ]
    )
    func badArgumentsExitTwo(_ arguments: [String]) async {
        let result = await BGTaskAudit.run(arguments)
        #expect(result.exitStatus == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: "))
        #expect(result.standardError.contains("Run 'bgtask-audit --help' for usage."))
    }

    @Test func asWarningsPrintsErrorFindingsAsWarningsWithTheirSeverity() async throws {
        try await withFolder(["Upload.swift": Self.raw]) { folder in
            let plain = await BGTaskAudit.run(["--fail-on", "never", folder])
            #expect(plain.standardOutput.contains(": error: [BT"))
            let warned = await BGTaskAudit.run(["--fail-on", "never", "--as-warnings", folder])
            #expect(warned.exitStatus == 0)
            #expect(!warned.standardOutput.contains(": error: "))
            #expect(warned.standardOutput.contains(": warning: [BT00"))
            #expect(warned.standardOutput.contains("] (error) "))
            let errorLines = plain.standardOutput.split(separator: "\n").filter { $0.contains(": error: [") }
            let markedLines = warned.standardOutput.split(separator: "\n").filter { $0.contains("] (error) ") }
            #expect(errorLines.count == markedLines.count)
        }
    }

    @Test func anAuditOfNothingFailsInsteadOfPassing() async throws {
        try await withFolder(["README.md": "no sources here\n"]) { folder in
            let result = await BGTaskAudit.run([folder])
            #expect(result.exitStatus == 2)
            #expect(result.standardError.contains("error: no Swift or Objective-C sources under \(folder)"))
        }
        try await withFolder(["Upload.swift": Self.correct]) { folder in
            #expect(await BGTaskAudit.run([folder]).exitStatus == 0)
        }
    }

    @Test func sarifFormatWritesASARIFLogAndKeepsTheExitStatus() async throws {
        try await withFolder(["Upload.swift": Self.raw]) { folder in
            let result = await BGTaskAudit.run(["--format", "sarif", folder])
            #expect(result.exitStatus == 1)  // the raw begin is a warning: fails at the default threshold
            let data = Data(result.standardOutput.utf8)
            let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(log["version"] as? String == "2.1.0")
            let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
            #expect(results.contains { $0["ruleId"] as? String == "BT001" })
        }
    }

    @Test func levelAndEngineChooseWhichDefectsAreReported() async throws {
        // A property overwritten by a second begin only if the app begins twice: a suspected BT005.
        let stored = """
            final class Sync {
                var task: UIBackgroundTaskIdentifier = .invalid
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") { self.finish() }
                    work { self.finish() }
                }
                func finish() {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }

            """
        try await withFolder(["Sync.swift": stored]) { folder in
            let proven = await BGTaskAudit.run(["--engine", "model", "--fail-on", "error", folder])
            #expect(!proven.standardOutput.contains("[BT005]"))
            // BT005, and BT006 and BT007 on threads the project does not show.
            #expect(proven.standardOutput.contains("3 suspected not shown (--level suspected)."))
            let suspected = await BGTaskAudit.run(
                ["--engine", "model", "--level", "suspected", "--fail-on", "error", folder])
            #expect(suspected.standardOutput.contains("[BT005] Suspected: "))
            // A suspected finding counts as a note for --fail-on.
            #expect(suspected.standardOutput.contains("[BT007] Suspected: "))
            #expect(suspected.exitStatus == 0)
        }
    }

    @Test(
        "A bad --level or --engine is a usage error that names the choices",
        arguments: [("--level", "maybe", "use proven or suspected"), ("--engine", "regex", "use model or tokens")])
    func badLevelOrEngineIsAUsageError(_ option: String, _ value: String, _ hint: String) async {
        let result = await BGTaskAudit.run([option, value, "."])
        #expect(result.exitStatus == 2)
        #expect(result.standardError.contains(hint))
    }
}
