import BGTaskCLI
import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import Foundation
import Testing
import ToolTestSupport

/// `--timeline` and `--timelines`: the pictures `bgtask simulate` and `bgtask report` draw.
@MainActor
struct TimelineCommandTests {
    private static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func picture(at url: URL) throws -> SVGDocument {
        try #require(SVGDocument(String(decoding: try Data(contentsOf: url), as: UTF8.self)))
    }

    @Test func explainDrawsTheNaiveRunWithTheLineThatLeaksAndItsCode() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("overwrite.svg")
        let result = await BGTask.run(["simulate", "--explain", "property-overwrite", "--timeline", file.path])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("The line to fix:"))
        #expect(result.standardError == "Timeline written to \(file.path).\n")
        let svg = try Self.picture(at: file)
        #expect(svg.panels.map { $0.attributes["data-title"] } == ["property-overwrite — naive"])
        let leaked = svg.root.all(withClass: "lane").filter { $0.attributes["data-ending"] == "heldAtTermination" }
        #expect(leaked.count == 1)
        #expect(
            leaked.first?.attributes["data-call-site"]?.hasPrefix(
                "BackgroundTaskScenarios/PropertyOverwriteScenario.swift:") == true)
        #expect(svg.root.all(withClass: "termination").first?.attributes["data-code"] == "0x8badf00d")
    }

    @Test func aScenarioWithVariantsStacksOnePanelEach() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("compare.svg")
        let result = await BGTask.run([
            "simulate", "--scenario", "missing-handler", "--variant", "naive", "--variant", "safe", "--timeline",
            file.path,
        ])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("missing-handler"))
        let svg = try Self.picture(at: file)
        #expect(
            svg.panels.map { $0.attributes["data-title"] } == ["missing-handler — naive", "missing-handler — safe"])
        #expect(svg.panels[0].all(withClass: "termination").count == 1)
        #expect(svg.panels[1].all(withClass: "termination").isEmpty)
    }

    @Test func timelinesWritesOneFilePerScenario() async throws {
        let folder = try Self.scratchFolder().appendingPathComponent("made/here")
        defer {
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent())
        }
        let result = await BGTask.run([
            "simulate", "--scenario", "double-end", "--scenario", "late-end", "--timelines", folder.path,
        ])
        #expect(result.exitStatus == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["double-end.svg", "late-end.svg"])
        let svg = try Self.picture(at: folder.appendingPathComponent("late-end.svg"))
        #expect(svg.panels.count == 8)
    }

    @Test func aDashPrintsTheTextChart() async {
        let result = await BGTask.run(["simulate", "--explain", "missing-handler", "--timeline", "-"])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("\nmissing-handler — naive\nterminated 0x8badf00d"))
        #expect(result.standardOutput.contains("Key: App F foreground"))
    }

    @Test func aFileEndingInTxtGetsTheTextChart() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("chart.txt")
        let result = await BGTask.run([
            "simulate", "--scenario", "early-return", "--variant", "naive", "--timeline", file.path,
        ])
        #expect(result.exitStatus == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("early-return — naive\n"))
    }

    @Test func aReportAndASnapshotDrawTheirHeldTasks() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = BackgroundTaskCallSite(fileID: "App/Uploader.swift", line: 42, function: "upload()")
        let snapshot = FlightRecorderSnapshot(
            processID: 4100, appBuild: "42", appVersion: "1.0", writtenAt: 1_790_000_000, moment: .heldAfterHandlers,
            inBackground: true,
            tasks: [
                .init(
                    callSite: site, name: "upload", age: 28, expiryStarted: true, handlerReturned: true,
                    source: "backend"),
                .init(
                    callSite: site, name: "thumbs", age: 3, expiryStarted: false, handlerReturned: false,
                    source: "backend"),
            ])
        let input = folder.appendingPathComponent("snapshot.json")
        try JSONEncoder().encode(snapshot).write(to: input)
        let output = folder.appendingPathComponent("snapshot.svg")
        let result = await BGTask.run(["report", input.path, "--timeline", output.path])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("process 4100"))
        let lanes = try Self.picture(at: output).root.all(withClass: "lane")
        #expect(lanes.map { $0.number("begin") } == [0, 25])
        #expect(lanes.allSatisfy { $0.attributes["data-ending"] == "inFlight" })
        #expect(lanes[0].all(withClass: "mark-heldAfterHandlers").count == 1)

        let report = BackgroundTaskReport(
            generatedAt: 100, outstandingHighWaterMark: 1, callSites: [],
            outstandingTasks: [OutstandingBackgroundTask(taskNumber: 7, name: "upload", callSite: site, age: 40)])
        try JSONEncoder().encode(report).write(to: input)
        let fromReport = await BGTask.run(["report", input.path, "--timeline", output.path])
        #expect(fromReport.exitStatus == 0)
        let reportLanes = try Self.picture(at: output).root.all(withClass: "lane")
        #expect(reportLanes.map { $0.attributes["data-identifier"] } == ["#7"])
    }

    @Test func aDocumentWithoutTimesIsAnErrorForTimeline() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("terminations.json")
        try Data("[]".utf8).write(to: input)
        let result = await BGTask.run(["report", input.path, "--timeline", folder.appendingPathComponent("x.svg").path])
        #expect(result.exitStatus == 2)
        #expect(result.standardError.contains("is a list of probable terminations, which records no times"))
        #expect(result.standardOutput.contains("0 probable background-task terminations"))
    }

    @Test func unwritableTargetsAndBadCombinationsAreErrorsNotTraps() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let intoFolder = await BGTask.run(["simulate", "--explain", "double-end", "--timeline", folder.path])
        #expect(intoFolder.exitStatus == 2)
        #expect(intoFolder.standardError.contains("it is a folder"))
        let noParent = await BGTask.run([
            "simulate", "--explain", "double-end", "--timeline", folder.appendingPathComponent("none/x.svg").path,
        ])
        #expect(noParent.exitStatus == 2)
        #expect(noParent.standardError.contains("no folder"))
        let file = folder.appendingPathComponent("file")
        try Data().write(to: file)
        let folderOverFile = await BGTask.run(["simulate", "--scenario", "double-end", "--timelines", file.path])
        #expect(folderOverFile.exitStatus == 2)
        for arguments in [
            ["simulate", "--list", "--timeline", "x.svg"], ["simulate", "--timeline"], ["simulate", "--timeline", ""],
            ["simulate", "--explain", "double-end", "--timelines", "dir"], ["report", "x.json", "--timeline"],
            ["simulate", "--timeline", "a.svg", "--timeline", "b.svg"],
            ["simulate", "--format", "json", "--timeline", "-"],
            ["report", "x.json", "--format", "json", "--timeline", "-"],
        ] {
            let result = await BGTask.run(arguments)
            #expect(result.exitStatus == 2, "\(arguments)")
        }
    }
}
