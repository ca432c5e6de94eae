import BackgroundTaskDiagnostics
import BackgroundTaskKitTesting
import BackgroundTaskScenarios
import Foundation
import Testing

/// The text of a line of a file in `Sources/BackgroundTaskScenarios`, found from this file's path.
private func sourceLine(of callSite: BackgroundTaskCallSite) throws -> String {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let relative = callSite.fileID.replacingOccurrences(of: "BackgroundTaskScenarios/", with: "")
    let candidates = [
        "Sources/BackgroundTaskScenarios/Patterns/\(relative)", "Sources/BackgroundTaskScenarios/\(relative)",
    ]
    let url = try #require(
        candidates.map { packageRoot.appendingPathComponent($0) }.first {
            FileManager.default.fileExists(atPath: $0.path)
        }
    )
    let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    return try #require(lines.indices.contains(callSite.line - 1) ? lines[callSite.line - 1] : nil)
}

@MainActor
struct ScenarioExplanationTests {
    /// Warned scenarios are not killed; the extension's naive flow calls `ProcessInfo` directly, not a
    /// backend the diagnostics wrap; the third-party SDK's is seen by the tracer, not the diagnostics; the scenarios
    /// of issue 24 are written against the simulated scheduler or keep their assertions right (their log explains).
    @Test(
        arguments: ScenarioCatalog.all.filter { $0.naiveFlow != nil }.map(\.id).filter {
            !["foreground-upload", "check-then-end-race", "debugger-run", "extension-activity", "third-party-sdk"]
                .contains($0)
        })
    func theExplanationPointsAtTheLineThatBeganTheLeakedAssertion(id: String) async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: id))
        let explanation = try #require(await ScenarioRunner.explain(scenario))
        let naive = try #require(scenario.variant(named: ScenarioVariant.naive))
        let (result, _) = await ScenarioRunner.run(naive, of: scenario)

        #expect(explanation.result == result)  // the same run as the table's naive row
        #expect(explanation.termination != nil)
        let leaking = explanation.leakingCallSites
        #expect(!leaking.isEmpty)
        for callSite in leaking {
            let line = try sourceLine(of: callSite)
            #expect(line.contains("beginBackgroundTask") || line.contains("HandWrittenTask("), "\(callSite): \(line)")
        }
        // The report itself, not only the termination record, shows the leak.
        let reported = explanation.report.callSites.filter { $0.outstanding > 0 || $0.notGranted > 0 }
        #expect(reported.map(\.callSite).allSatisfy(leaking.contains))
        #expect(!reported.isEmpty)
    }

    @Test func theOverwrittenExportIsTheOneTheReportShowsOutstanding() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "property-overwrite"))
        let explanation = try #require(await ScenarioRunner.explain(scenario))
        let site = try #require(explanation.report.callSites.first)
        #expect((site.begun, site.ended, site.outstanding) == (2, 1, 1))
        #expect(explanation.report.outstandingTasks.map(\.name) == ["Export album 1"])
        #expect(explanation.notableEvents.map(\.kind).first == .expired)
    }

    @Test func theBurstIsReportedApproachingTheLimitBeforeTheSystemRefuses() async throws {
        let scenario = try #require(ScenarioCatalog.scenario(withID: "too-many-tasks"))
        let explanation = try #require(await ScenarioRunner.explain(scenario))
        #expect(
            explanation.notableEvents.map(\.kind) == [
                .limitApproaching(outstanding: 800, limit: 1000), .refused(.notGranted),
            ]
        )
        #expect(explanation.report.outstandingHighWaterMark == 1000)
    }

    @Test func aScenarioMadeOfVariantsAloneHasNothingToExplain() async {
        let scenario = Scenario(id: "custom", summary: "Only variants.", variants: [])
        #expect(await ScenarioRunner.explain(scenario) == nil)
    }
}
