import AuditCommandLine
import BGTaskCLI
import Foundation
import Testing

@MainActor
struct BGTaskCLITests {
    // MARK: - simulate's rough edges (issue 22)

    @Test func aVariantOfAnotherScenarioIsNamedWhereItBelongs() async {
        let result = await BGTask.run(["simulate", "--scenario", "early-return", "--variant", "traced"])
        #expect(result.exitStatus == 2)
        #expect(
            result.standardError.contains("scenario early-return has no variant named traced (its variants: naive,"))
        #expect(result.standardError.contains("it belongs to third-party-sdk"))
    }

    @Test func aOneRowRunIsNotBuriedUnderTheLegend() async {
        let one = await BGTask.run(["simulate", "--scenario", "early-return", "--variant", "naive"])
        #expect(one.exitStatus == 0)
        #expect(one.standardOutput.split(separator: "\n").count == 4)  // header, row, summary, one pointer
        #expect(!one.standardOutput.contains("OUTCOME: terminated"))
        let two = await BGTask.run([
            "simulate", "--scenario", "early-return", "--variant", "naive", "--variant", "safe",
        ])
        #expect(two.standardOutput.contains("OUTCOME: terminated"))
    }

    @Test func helpPointsAtCommandsNotAtFilesAnInstalledBinaryLacks() async {
        for arguments in [["--help"], ["simulate", "--help"], ["report", "--help"]] {
            let help = await BGTask.run(arguments).standardOutput
            #expect(!help.contains("Documentation/"), "\(arguments)")
        }
        #expect(!(await BGTaskAudit.run(["--help"]).standardOutput.contains("Documentation/")))
        #expect(await BGTask.run(["--help"]).standardOutput.contains("bgtask audit --explain BTnnn"))
    }

    @Test func scenarioNamesAreCaseInsensitiveAsInAudit() async {
        let result = await BGTask.run(["simulate", "--scenario", "Early-Return", "--list"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.hasPrefix("early-return [naive,"))
    }

    @Test func explainJSONDoesNotEscapeSlashes() async {
        let result = await BGTask.run(["simulate", "--explain", "early-return", "--format", "json"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("/"))
        #expect(!result.standardOutput.contains("\\/"))
    }

    // MARK: - the README's gate

    @Test func theReadmesAuditGateKeepsTheDefaultThatCatchesTheClassicLeak() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()  // Tools/Tests/BGTaskCLITests/… → the repository
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let gates = readme.split(separator: "\n").filter { $0.contains("bgtask audit ") && !$0.contains("--explain") }
        #expect(!gates.isEmpty)
        for gate in gates {
            #expect(!gate.contains("--fail-on error"), "\(gate)")
        }
        // The classic leak is a warning: the default gate fails on it, `--fail-on error` would not.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A handler that ends the task, and an early return that does not: the classic leak.
        let leak = """
            func upload() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                if failed { return }
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }

            """
        try Data(leak.utf8).write(to: folder.appendingPathComponent("Upload.swift"))
        #expect(await BGTaskAudit.run([folder.path]).exitStatus == 1)
        #expect(await BGTaskAudit.run(["--fail-on", "error", folder.path]).exitStatus == 0)
    }

    // MARK: - version

    @Test func versionPrintsTheLatestReleaseInTheChangelog() async throws {
        let changelog = try ReleaseRecord.changelog()
        let latest = try #require(ReleaseRecord.releases(in: changelog).first).version
        // Past the release, with changes listed under [Unreleased], the version says so.
        let expected = ReleaseRecord.hasUnreleasedChanges(changelog) ? "\(latest)+unreleased" : latest
        #expect(
            BGTask.version == expected,
            "CHANGELOG.md's latest release is \(latest)\(expected == latest ? "" : " and [Unreleased] lists changes")")
        for argument in ["--version", "version"] {
            let result = await BGTask.run([argument])
            #expect(result.exitStatus == 0)
            #expect(result.standardOutput == "bgtask \(expected) (BackgroundTaskKit)\n")
            #expect(result.standardError.isEmpty)
        }
    }

    // MARK: - simulate

    @Test func simulateJSONHasExactlyTheDocumentedKeysAndTheExpectedOutcomes() async throws {
        let result = await BGTask.run(["simulate", "--format", "json"])
        #expect(result.exitStatus == 0)
        #expect(result.standardError.isEmpty)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        )
        #expect(rows.count == 116)  // 12 scenarios of 8 variants, then 3 + 3 + 3 + 3 + 2 + 2 + 2 + 2
        for row in rows {
            #expect(Set(row.keys) == ["scenario", "variant", "outcome", "code", "time"])
            #expect(row["time"] is NSNumber)
            // Warned, never terminated.
            if ["foreground-upload", "check-then-end-race", "debugger-run"].contains(row["scenario"] as? String) {
                #expect(["warned", "clean"].contains(row["outcome"] as? String))
                #expect(row["code"] is NSNull)
                continue
            }
            if row["scenario"] as? String == "third-party-sdk" {
                let rescued = row["variant"] as? String == "traced-rescue"
                #expect(row["outcome"] as? String == (rescued ? "clean" : "terminated"))
                continue
            }
            if row["scenario"] as? String == "continued-stall", row["variant"] as? String == "naive" {
                #expect(row["outcome"] as? String == "expired")
                #expect(row["code"] is NSNull)
                continue
            }
            switch row["variant"] as? String {
            case "naive":
                #expect(row["outcome"] as? String == "terminated")
                #expect(["0x8badf00d", "0xbada5e47", "0xdead10cc", "SIGABRT"].contains(row["code"] as? String))
            default:
                #expect(row["outcome"] as? String == "clean")
                #expect(row["code"] is NSNull)
            }
        }
    }

    @Test func simulateTablePrintsARowPerRunAndASummary() async {
        let result = await BGTask.run(["simulate", "--scenario", "too-many-tasks"])
        #expect(result.exitStatus == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("SCENARIO") == true)
        #expect(lines.contains { $0.hasPrefix("too-many-tasks  naive              terminated  0xbada5e47  0 s") })
        #expect(lines.contains { $0.hasPrefix("too-many-tasks  correct            clean       -           2 s") })
        #expect(lines.contains { $0.hasPrefix("too-many-tasks  manager-coalesced  clean       -           2.5 s") })
        #expect(lines.contains("8 runs: 1 terminated, 0 warned, 7 clean"))
    }

    @Test func simulateFiltersByVariant() async throws {
        let result = await BGTask.run(["simulate", "--variant", "correct", "--format", "json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        )
        #expect(rows.count == 12)
        #expect(rows.allSatisfy { $0["variant"] as? String == "correct" })
    }

    @Test func simulateListsTheScenarios() async {
        let result = await BGTask.run(["simulate", "--list"])
        #expect(result.exitStatus == 0)
        #expect(
            result.standardOutput.contains(
                "missing-handler [naive, correct, safe, scoped, closure, manager, manager-coalesced, manager-lazy]"
            )
        )
    }

    // MARK: - Usage errors

    @Test(arguments: [
        ["simulate", "--frobnicate"],
        ["simulate", "--format"],
        ["simulate", "--format", "yaml"],
        ["simulate", "--scenario", "no-such-scenario"],
        ["simulate", "--variant", "no-such-variant"],
        ["explode"],
        [],
    ])
    func badArgumentsSayWhatIsWrongAndWhereTheUsageIsAndExitWithStatusTwo(_ arguments: [String]) async {
        let result = await BGTask.run(arguments)
        #expect(result.exitStatus == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: "))
        if arguments.isEmpty {
            #expect(result.standardError.contains("USAGE: bgtask"))  // no command at all: the whole usage
        } else {
            // One problem, one pointer: not the whole usage again.
            #expect(result.standardError.split(separator: "\n").count == 2)
            let help = arguments.first == "simulate" ? "bgtask simulate --help" : "bgtask --help"
            #expect(result.standardError.contains("Run '\(help)' for usage."))
        }
    }

    @Test func helpPrintsUsageAndSucceeds() async {
        let result = await BGTask.run(["--help"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.hasPrefix("USAGE: bgtask"))
    }

    @Test(arguments: [["simulate", "--help"], ["simulate", "-h"], ["report", "--help"]])
    func eachCommandsHelpPrintsItsUsageAndSucceeds(_ arguments: [String]) async {
        let result = await BGTask.run(arguments)
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.hasPrefix("USAGE: bgtask \(arguments[0])"))
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [["--help"], [".", "-h"]])
    func theAuditsHelpPrintsItsUsageAndSucceeds(_ arguments: [String]) async {
        let result = await BGTaskAudit.run(arguments)
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.hasPrefix("USAGE: bgtask-audit"))
        #expect(result.standardError.isEmpty)
    }

    @Test func theSimulateTableExplainsItsColumnsAndPointsToExplain() async {
        let result = await BGTask.run(["simulate", "--scenario", "double-end"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("OUTCOME: terminated = killed by the watchdog"))
        #expect(result.standardOutput.contains("bgtask simulate --explain SCENARIO"))
    }

    @Test func theLegendExplainsEveryFaceThatShowsWarnedAndNamesTheCleanWay() async throws {
        let result = await BGTask.run(["simulate", "--format", "json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let warnedFaces = rows.filter { $0["outcome"] as? String == "warned" && $0["variant"] as? String != "naive" }
        #expect(!warnedFaces.isEmpty)
        let table = await BGTask.run(["simulate"]).standardOutput
        let start = try #require(table.range(of: "OUTCOME:"))
        let legend = String(table[start.lowerBound...])
        for row in warnedFaces {
            let scenario = try #require(row["scenario"] as? String)
            #expect(legend.contains(scenario), "the legend does not say why \(scenario) shows warned for a face")
            let clean = rows.filter { $0["scenario"] as? String == scenario && $0["outcome"] as? String == "clean" }
            #expect(clean.contains { $0["variant"] as? String == "manager-lazy" } && legend.contains("manager-lazy"))
        }
    }

    @Test func explainingTheDoubleEndShowsIOSsCantEndMessages() async {
        let result = await BGTask.run(["simulate", "--explain", "double-end"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("What iOS printed to the console:"))
        #expect(result.standardOutput.contains("Can't end BackgroundTask"))
    }

    @Test func explainingALockHeldAtSuspensionShowsTheLogWithTheReleaseMissing() async {
        let result = await BGTask.run(["simulate", "--explain", "lock-at-suspension"])
        #expect(result.exitStatus == 0)
        let output = result.standardOutput
        #expect(output.contains("naive: terminated 0xdead10cc at 26 s"))
        #expect(output.contains("file lock taken: \"Shared.sqlite\""))
        #expect(!output.contains("file lock released"))
        #expect(output.contains("bgtask simulate --scenario lock-at-suspension"))
    }
}
