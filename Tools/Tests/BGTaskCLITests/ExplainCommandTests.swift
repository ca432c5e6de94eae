import BGTaskCLI
import Foundation
import Testing

@MainActor
struct ExplainCommandTests {
    @Test func explainPrintsTheReportAndTheLineToFix() async throws {
        let result = await BGTask.run(["simulate", "--explain", "property-overwrite"])
        #expect(result.exitStatus == 0)
        #expect(result.standardError.isEmpty)
        let output = result.standardOutput
        #expect(output.contains("The naive flow was terminated with 0x8badf00d at 30 s."))
        #expect(
            output.contains(
                "expired  \"Export album 1\" begun at BackgroundTaskScenarios/PropertyOverwriteScenario.swift:"))
        let lines = output.split(separator: "\n").map(String.init)
        let fix = try #require(lines.firstIndex(of: "The line to fix:"))
        #expect(lines[fix + 1].hasPrefix("  BackgroundTaskScenarios/PropertyOverwriteScenario.swift:"))
        #expect(lines.contains { $0.contains("(startExport(_:))  2      1      0") })
    }

    @Test func explainAsJSONCarriesTheResultTheLeakingSitesAndTheVersionedReport() async throws {
        let result = await BGTask.run(["simulate", "--explain", "missing-handler", "--format", "json"])
        #expect(result.exitStatus == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        #expect(Set(object.keys) == ["scenario", "result", "leakingCallSites", "report"])
        let report = try #require(object["report"] as? [String: Any])
        #expect(report["version"] as? Int == 2)
        let sites = try #require(object["leakingCallSites"] as? [[String: Any]])
        #expect(sites.map { $0["fileID"] as? String } == ["BackgroundTaskScenarios/MissingHandlerScenario.swift"])
        let row = try #require(object["result"] as? [String: Any])
        #expect(row["code"] as? String == "0x8badf00d")
    }

    @Test(arguments: [
        ["simulate", "--explain"],
        ["simulate", "--explain", "no-such-scenario"],
        ["simulate", "--explain", "double-end", "--list"],
        ["simulate", "--explain", "double-end", "--variant", "naive"],
        ["simulate", "--explain", "double-end", "--explain", "late-end"],
    ])
    func explainMisuseIsAUsageError(arguments: [String]) async {
        let result = await BGTask.run(arguments)
        #expect(result.exitStatus == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: "))
    }

    @Test func aScenarioWithoutANaiveFlowSaysWhichVariantsToRunInstead() async {
        let result = await BGTask.run(["simulate", "--explain", "third-party-sdk"])
        #expect(result.exitStatus == 2)
        #expect(result.standardError.contains("cannot be explained: its leak is in code the app cannot change"))
        #expect(!result.standardError.contains("has no naive flow"))  // it has a variant named `naive`
        #expect(result.standardError.contains("(naive, traced, traced-rescue)"))
    }
}
