import Foundation
import Testing

@testable import BackgroundTaskAudit

/// Nothing in the input makes the audit crash or hang: bad files and folders are skipped with a note.
struct BadInputTests {
    private let raw = "func f() { let t = UIApplication.shared.beginBackgroundTask(withName: \"A\") }\n"

    private func skipped(_ report: AuditReport) -> [String: SkippedFile.Reason] {
        Dictionary(report.skipped.map { (($0.path as NSString).lastPathComponent, $0.reason) }) { first, _ in first }
    }

    @Test("Binary and non-UTF-8 files are skipped with a note; the rest is still audited")
    func binaryAndInvalidUTF8AreSkipped() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Binary.swift", Data([0x62, 0x65, 0x00, 0x67, 0xFF]))
        try folder.write("Latin1.m", Data("caf\u{E9}".utf8.dropLast(2) + [0xE9, 0x20]))
        try folder.write("Overlong.swift", Data([0x61, 0xC0, 0xAF]))
        try folder.write("Good.swift", raw)
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Binary.swift": .binary, "Latin1.m": .notUTF8, "Overlong.swift": .notUTF8])
        #expect(report.filesScanned == 1)
        #expect(report.findings.map(\.ruleID) == ["BT001", "BT003", "BT008"])
        #expect(report.skipNotes.contains("note: skipped \(folder.path)/Binary.swift: binary file"))
    }

    @Test("A file over the size limit is skipped without being read")
    func oversizedFileIsSkipped() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Huge.swift", String(repeating: raw, count: 120_000))  // about 9 MB
        try folder.write("Small.swift", raw)
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Huge.swift": .tooLarge])
        #expect(report.filesScanned == 1)
    }

    @Test("A large file under the limit is audited in reasonable time", .timeLimit(.minutes(1)))
    func largeFileIsAudited() async throws {
        let folder = try TemporaryFolder()
        let function =
            "func f() {\n    var t = UIBackgroundTaskIdentifier.invalid\n"
            + "    t = UIApplication.shared.beginBackgroundTask(withName: \"A\") {\n"
            + "        UIApplication.shared.endBackgroundTask(t)\n        t = .invalid\n    }\n    send(t)\n}\n"
            + String(repeating: "let x = [1, 2, 3].map { $0 * 2 }  // filler\n", count: 40)
        try folder.write("Large.swift", String(repeating: function, count: 2_000))  // about 4 MB
        // The token rules: the code model's time on large trees is the benchmark's (`Documentation/Performance.md`).
        let report = try await Auditor.tokenRules().audit(paths: [folder.path])
        #expect(report.findings.count == 2_000)
        #expect(report.findings.allSatisfy { $0.ruleID == "BT001" })
    }

    @Test("Pathological nesting is skipped as too complex instead of taking forever", .timeLimit(.minutes(1)))
    func pathologicalNestingIsSkipped() async throws {
        let folder = try TemporaryFolder()
        let opening = String(repeating: "UIApplication.shared.beginBackgroundTask(withName: \"A\") {\n", count: 20_000)
        try folder.write("Deep.swift", opening + String(repeating: "}\n", count: 20_000))
        try folder.write("Parens.m", String(repeating: "([", count: 200_000) + "beginBackgroundTask")
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Deep.swift": .tooComplex])
    }

    @Test(
        "Long runs of mismatched brackets are audited in linear time",
        .timeLimit(.minutes(1)),
        arguments: [
            ("Stray.swift", "(", "}", ""),
            ("Stray.m", "[", ")", ""),
            ("Keywords.swift", "(if ", ")", ""),
            ("Keywords.m", "(if ", ";", ")"),
            ("Selectors.m", "- a:(int)x\n", "", ""),
        ]
    )
    func mismatchedBracketsStayLinear(_ name: String, _ opening: String, _ closing: String, _ tail: String) async {
        let begin =
            name.hasSuffix(".m")
            ? "void f(void) { UIBackgroundTaskIdentifier t = [app beginBackgroundTaskWithExpirationHandler:nil]; }\n"
            : "let t = UIApplication.shared.beginBackgroundTask(withName: \"A\")\n"
        let count = 50_000
        let source =
            begin + String(repeating: opening, count: count) + String(repeating: closing, count: count)
            + String(repeating: tail, count: count)
        let (elapsed, findings) = await offThePool {
            var findings: [Finding] = []
            let elapsed = ContinuousClock().measure {
                findings = Auditor.tokenRules().audit(source: source, path: name)
            }
            return (elapsed, findings)
        }
        #expect(findings.contains { $0.ruleID == "BT003" && $0.location.line == 1 })
        #expect(elapsed < .seconds(10), "took \(elapsed)")  // quadratic, it took minutes
    }

    @Test(
        "Many ends, resets and exits after one begin are checked in linear time",
        .timeLimit(.minutes(1)),
        arguments: [
            (4_000, " UIApplication.shared.endBackgroundTask(t)\n", 50_000, " x = 1\n", "BT007"),
            (2_000, " UIApplication.shared.endBackgroundTask(t)\n", 40_000, " if a { return }\n", "BT008"),
        ]
    )
    func manyEndsStayLinear(_ ends: Int, _ end: String, _ fillers: Int, _ filler: String, _ rule: String) async {
        /// The audit of a function with `ends` ends among `fillers` lines: its time and whether `rule` was found.
        func audit(_ ends: Int, _ fillers: Int) async -> (Duration, Bool) {
            let source =
                "var t = UIBackgroundTaskIdentifier.invalid\nfunc f() {\n"
                + " t = UIApplication.shared.beginBackgroundTask(withName: \"x\") { }\n"
                + String(repeating: filler, count: fillers / 2) + String(repeating: end, count: ends)
                + String(repeating: filler, count: fillers / 2) + "}\n"
            return await offThePool {
                var findings: [Finding] = []
                let elapsed = ContinuousClock().measure {
                    findings = Auditor.tokenRules().audit(source: source, path: "Many.swift")
                }
                return (elapsed, findings.contains { $0.ruleID == rule })
            }
        }
        let (quarter, _) = await audit(ends / 4, fillers / 4)
        let (elapsed, found) = await audit(ends, fillers)
        #expect(found)
        // Four times the input: about four times the time if linear, sixteen if quadratic (which took half a minute or
        // more at full size). Relative, so a loaded machine or a debug build does not fail it; or fast outright.
        #expect(elapsed < quarter * 8 || elapsed < .seconds(10), "took \(elapsed); a quarter of it took \(quarter)")
    }

    @Test("A symbolic-link loop is noted and not followed")
    func symbolicLinkLoopIsNoted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Sources/A.swift", raw)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Sources/Again", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/Self.swift", withDestinationPath: "Self.swift")
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Again": .symbolicLinkLoop, "Self.swift": .brokenSymbolicLink])
        #expect(report.filesScanned == 1)
    }

    @Test("A link to a folder already audited does not audit it twice")
    func linkedFolderIsAuditedOnce() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Real/A.swift", raw)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Linked", withDestinationPath: "Real")
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(report.filesScanned == 1)
        #expect(report.skipped.isEmpty)
    }

    @Test("A folder that cannot be listed is noted and the walk goes on")
    func unreadableFolderIsNoted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Locked/A.swift", raw)
        try folder.write("Open/B.swift", raw)
        var walker = SourceFileWalker(configuration: AuditConfiguration())
        walker.listFolder = { path in
            if path.hasSuffix("/Locked") { throw CocoaError(.fileReadNoPermission) }
            return try FileManager.default.contentsOfDirectory(atPath: path)
        }
        let walk = try walker.walk([folder.path])
        let report = await Auditor().audit(walk)
        #expect(skipped(report) == ["Locked": .unreadableFolder])
        #expect(report.filesScanned == 1)
    }

    @Test("A folder without read permission is noted (not as root)", .enabled(if: getuid() != 0))
    func folderWithoutPermissionIsNoted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Locked/A.swift", raw)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: folder.path + "/Locked")
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Locked": .unreadableFolder])
    }

    @Test("A FIFO with a source extension is never opened")
    func fifoIsNotOpened() async throws {
        let folder = try TemporaryFolder()
        #expect(mkfifo(folder.path + "/Pipe.swift", 0o644) == 0)
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(skipped(report) == ["Pipe.swift": .notRegularFile])
    }

    @Test("Build products, dependencies and hidden folders are not entered")
    func defaultSkippedFoldersAreNotEntered() async throws {
        let folder = try TemporaryFolder()
        for name in [".build", "Pods", "Carthage", "DerivedData", ".git", "App/.hidden"] {
            try folder.write("\(name)/Raw.swift", raw)
        }
        try folder.write("App/Raw.swift", raw)
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(report.filesScanned == 1)
        #expect(report.findings.allSatisfy { $0.path.hasSuffix("/App/Raw.swift") })
    }

    @Test("A path that does not exist is an error")
    func missingPathIsAnError() async throws {
        await #expect(throws: AuditError(code: .pathNotFound, path: "/no/such/folder")) {
            try await Auditor().audit(paths: ["/no/such/folder"])
        }
    }
}
