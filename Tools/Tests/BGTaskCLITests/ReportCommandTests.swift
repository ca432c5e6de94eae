import BGTaskCLI
import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import Foundation
import Testing

/// Writes `data` to a fresh temporary file and returns its path.
private func temporaryFile(_ data: Data) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgtask-report-\(UUID().uuidString).json")
    try data.write(to: url)
    return url.path
}

private func encoded(_ value: some Encodable) throws -> Data {
    try JSONEncoder().encode(value)
}

private let leakyCaller = BackgroundTaskCallSite(image: "LeakySDK", symbol: "-[LKFlusher flush]", offset: 0x1c4)
private let appSite = BackgroundTaskCallSite(fileID: "App/Uploader.swift", line: 42, function: "upload()")

@MainActor
struct ReportCommandTests {
    @Test func aYoungRunningTaskIsNotCountedAsLeakingButOneHeldPastThirtySecondsIs() async throws {
        for (age, leaking) in [(12.0, false), (45.0, true)] {
            var running = CallSiteStatistics(callSite: appSite, firstBeganAt: 0)
            running.begun = 1
            running.outstanding = 1
            running.oldestOutstandingAge = age
            let report = BackgroundTaskReport(
                generatedAt: age, outstandingHighWaterMark: 1, callSites: [running], outstandingTasks: [])
            let path = try temporaryFile(try encoded(report))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = await BGTask.run(["report", path])
            #expect(result.exitStatus == 0)
            #expect(result.standardOutput.contains("1 call sites, \(leaking ? 1 : 0) leaking or misbehaving"))
            #expect(result.standardOutput.contains("No call site leaked.") != leaking)
        }
    }

    @Test func aReportPrintsOnlyTheLeakingCallSitesWorstFirst() async throws {
        var leaky = CallSiteStatistics(callSite: leakyCaller, firstBeganAt: 0)
        leaky.begun = 3
        leaky.expired = 2
        leaky.heldAfterHandlers = 2
        leaky.rescued = 1
        leaky.outstanding = 1
        var fine = CallSiteStatistics(callSite: appSite, firstBeganAt: 0)
        fine.begun = 5
        fine.ended = 5
        var safetyNet = CallSiteStatistics(
            callSite: BackgroundTaskCallSite(fileID: "App/Sync.swift", line: 7, function: "sync()"), firstBeganAt: 0)
        safetyNet.begun = 1
        safetyNet.endedBySafetyNet = 1
        let report = BackgroundTaskReport(
            generatedAt: 40, outstandingHighWaterMark: 2, callSites: [fine, safetyNet, leaky], outstandingTasks: [])
        let path = try temporaryFile(try encoded(report))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let result = await BGTask.run(["report", path])
        #expect(result.exitStatus == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("3 call sites, 2 leaking") == true)
        #expect(lines[1].hasPrefix("CALL SITE"))
        #expect(lines[2].hasPrefix("LeakySDK: -[LKFlusher flush]"))
        #expect(
            lines[2].split(separator: " ", omittingEmptySubsequences: true).suffix(9) == [
                "3", "0", "2", "2", "1", "0", "0", "0", "1",
            ])
        #expect(lines[3].hasPrefix("App/Sync.swift:7 (sync())"))
        #expect(!result.standardOutput.contains("Uploader"))

        let json = await BGTask.run(["report", "--format", "json", path])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "report")
        #expect((object["leaking"] as? [[String: Any]])?.count == 2)
    }

    @Test func aSnapshotPrintsItsHeldTasksAndWhatTheNextLaunchWouldConclude() async throws {
        let snapshot = FlightRecorderSnapshot(
            processID: 4100, appBuild: "42", appVersion: "1.0", writtenAt: 1_790_000_000, moment: .heldAfterHandlers,
            inBackground: true,
            tasks: [
                .init(
                    callSite: leakyCaller, name: "flush", age: 28, expiryStarted: true, handlerReturned: true,
                    source: "tracer")
            ]
        )
        let path = try temporaryFile(try encoded(snapshot))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await BGTask.run(["report", path])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("process 4100, build 42, moment heldAfterHandlers, in background: yes"))
        #expect(result.standardOutput.contains("probable background-task termination (evidence: heldAfterHandlers)"))
        #expect(result.standardOutput.contains("LeakySDK: -[LKFlusher flush]  flush  28 s  handler returned  tracer"))
    }

    @Test func aMetricKitPayloadPrintsItsBackgroundTaskTerminations() async throws {
        let payload = """
            {"timeStampBegin": "2026-11-20 09:00:00", "timeStampEnd": "2026-11-20 09:00:00",
             "crashDiagnostics": [{"diagnosticMetaData": {"appBuildVersion": "42", "pid": 4100,
               "terminationReason": "Namespace RUNNINGBOARD, Code 0x2182bad2"}}]}
            """
        let path = try temporaryFile(Data(payload.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await BGTask.run(["report", path])
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("1 crash diagnostics, 1 about background tasks"))
        #expect(
            result.standardOutput.contains(
                "4100     42     backgroundTaskTimeout  Namespace RUNNINGBOARD, Code 0x2182bad2"))
    }

    @Test func aDirectoryOrAPipeIsNamedForWhatItIs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let onDirectory = await BGTask.run(["report", directory.path])
        #expect(onDirectory.exitStatus == 2)
        #expect(
            onDirectory.standardError
                == "error: \(directory.path) is a directory: give the file a report or snapshot was saved to\n")

        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path)
        #expect(await BGTask.run(["report", link]).standardError.contains("\(link) is a directory"))

        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let onFIFO = await BGTask.run(["report", fifo])
        #expect(onFIFO.exitStatus == 2)
        #expect(onFIFO.standardError.contains("is not a regular file (a pipe, socket or device)"))
        #expect(onFIFO.standardError.contains("bgtask report -"))

        let missing = await BGTask.run(["report", directory.appendingPathComponent("nothing.json").path])
        #expect(missing.standardError.hasSuffix("no such file\n"))
    }

    @Test func aFileItCannotReadIsAnErrorWithStatus2() async throws {
        let missing = await BGTask.run(["report", "/nonexistent/report.json"])
        #expect(missing.exitStatus == 2)
        #expect(missing.standardError.contains("cannot read"))

        let path = try temporaryFile(Data("[1, 2, 3]".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let unknown = await BGTask.run(["report", path])
        #expect(unknown.exitStatus == 2)
        #expect(unknown.standardError.contains("is not a background-task report"))

        #expect(await BGTask.run(["report"]).exitStatus == 2)
        #expect(await BGTask.run(["report", "--format", "xml", path]).exitStatus == 2)
        #expect(await BGTask.run(["report", "a.json", "b.json"]).exitStatus == 2)
    }
}
