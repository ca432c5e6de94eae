import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// Stand-ins with MetricKit's declarations: `MXMetaData`, `MXCrashDiagnostic`, `MXDiagnosticPayload`
/// and `MXBackgroundExitData` (whose conformances are empty apart from the `pid` accessor).
private final class StandInMetaData: MetricKitMetaDataMirror {
    let applicationBuildVersion: String
    let osVersion = "iPhone OS 18.1 (22B83)"
    let pid: pid_t
    var reportedProcessID: Int32? { pid > 0 ? pid : nil }

    init(build: String, pid: pid_t) {
        applicationBuildVersion = build
        self.pid = pid
    }
}

private final class StandInCrashDiagnostic: MetricKitCrashDiagnosticMirror {
    let metaData: StandInMetaData
    let exceptionType: NSNumber? = 10
    let exceptionCode: NSNumber? = 0
    let signal: NSNumber? = 9
    let terminationReason: String?

    init(metaData: StandInMetaData, terminationReason: String?) {
        self.metaData = metaData
        self.terminationReason = terminationReason
    }
}

private final class StandInDiagnosticPayload: MetricKitDiagnosticPayloadMirror {
    let crashDiagnostics: [StandInCrashDiagnostic]?
    let timeStampBegin: Date
    let timeStampEnd: Date

    init(_ diagnostics: [StandInCrashDiagnostic], from start: Date, to end: Date) {
        crashDiagnostics = diagnostics
        timeStampBegin = start
        timeStampEnd = end
    }
}

private final class StandInBackgroundExitData: MetricKitBackgroundExitDataMirror {
    let cumulativeNormalAppExitCount = 3
    let cumulativeMemoryResourceLimitExitCount = 0
    let cumulativeCPUResourceLimitExitCount = 0
    let cumulativeMemoryPressureExitCount = 1
    let cumulativeBadAccessExitCount = 0
    let cumulativeAbnormalExitCount = 0
    let cumulativeIllegalInstructionExitCount = 0
    let cumulativeAppWatchdogExitCount = 0
    let cumulativeSuspendedWithLockedFileExitCount = 0
    let cumulativeBackgroundTaskAssertionTimeoutExitCount = 2
}

/// iOS 27's `CrashDiagnostic.TerminationCategory`: a struct of `static let`s.
private struct StandInTerminationCategory: TerminationCategoryMirror, RawRepresentable {
    let rawValue: String
    static let taskTimeout = StandInTerminationCategory(rawValue: "taskTimeout")
    static let watchdog = StandInTerminationCategory(rawValue: "watchdog")
}

/// A probable termination of process `processID` (build 42) whose last snapshot was written `at`.
private func termination(processID: Int32, at time: TimeInterval, build: String = "42")
    -> ProbableBackgroundTaskTermination
{
    let snapshot = FlightRecorderSnapshot(
        processID: processID, appBuild: build, appVersion: "1.0", writtenAt: time, moment: .heldAfterHandlers,
        inBackground: true,
        tasks: [
            .init(
                callSite: BackgroundTaskCallSite(image: "LeakySDK", symbol: "-[LKFlusher flush]", offset: 0x1c4),
                name: "flush", age: 28, expiryStarted: true, handlerReturned: true, source: "tracer")
        ]
    )
    return ProbableBackgroundTaskTermination(snapshot: snapshot)!
}

/// A storage holding kept terminations and no snapshot.
private func storage(keeping terminations: [ProbableBackgroundTaskTermination]) throws -> MemoryStorage {
    let storage = MemoryStorage()
    try storage.write(try JSONEncoder().encode(terminations), to: FlightRecorder.terminationsFileName)
    return storage
}

struct MetricKitMatchingTests {
    @Test func theRecordedPayloadsShapesAreRead() throws {
        let crashes = try MetricKitJSON.crashDiagnostics(in: Data(RecordedPayloads.watchdogDiagnostic.utf8))
        #expect(crashes.map(\.processID) == [4100, 4101])
        #expect(crashes.map(\.kind) == [.backgroundTaskTimeout, .other])
        #expect(crashes.first?.appBuild == "42" && crashes.first?.signal == 9 && crashes.first?.exceptionType == 10)
        #expect(crashes.first?.periodStart != nil)

        let counts = try MetricKitJSON.backgroundExitCounts(in: Data(RecordedPayloads.metricPayload.utf8))
        #expect(counts.count == 1)
        #expect(counts.first?.backgroundTaskAssertionTimeout == 2)
        #expect(counts.first?.normal == 3 && counts.first?.other == 1 && counts.first?.appWatchdog == 0)
        #expect(counts.first?.appBuild == "42")
    }

    @Test func badPayloadsGetTypedErrors() {
        #expect(throws: MetricKitJSON.ReadError.notJSON) { try MetricKitJSON.crashDiagnostics(in: Data("{".utf8)) }
        #expect(throws: MetricKitJSON.ReadError.self) { try MetricKitJSON.crashDiagnostics(in: Data("42".utf8)) }
        #expect(throws: MetricKitJSON.ReadError.self) { try MetricKitJSON.crashDiagnostics(in: Data("{}".utf8)) }
        #expect((try? MetricKitJSON.backgroundExitCounts(in: Data("{}".utf8))) == [])
    }

    @Test func codesAreRecognisedInHexAndDecimal() {
        func kind(_ reason: String?, code: Int? = nil) -> CrashDiagnosticRecord.Kind {
            CrashDiagnosticRecord(processID: nil, appBuild: "1", exceptionCode: code, terminationReason: reason).kind
        }
        #expect(kind("Namespace RUNNINGBOARD, Code 0x2182BAD2") == .backgroundTaskTimeout)
        #expect(kind("Namespace FRONTBOARD, Code 2343432205") == .watchdog)
        #expect(kind("Namespace ASSERTIOND, Code 0xbada5e47") == .tooManyAssertions)
        #expect(kind(nil, code: 0x8bad_f00d) == .watchdog)
        #expect(kind("Namespace SIGNAL, Code 0xb") == .other)
        #expect(kind(nil) == .other)
    }

    @Test func aDiagnosticThroughTheMirrorsMatchesByProcessIDAndBuild() throws {
        let recorder = FlightRecorder(
            storage: try storage(keeping: [termination(processID: 7, at: 1000), termination(processID: 8, at: 2000)]),
            sources: [], configuration: .init(appBuild: "42"), processID: 9)
        let payload = StandInDiagnosticPayload(
            [
                StandInCrashDiagnostic(
                    metaData: StandInMetaData(build: "42", pid: 8),
                    terminationReason: "Namespace RUNNINGBOARD, Code 0x2182bad2"),
                StandInCrashDiagnostic(
                    metaData: StandInMetaData(build: "41", pid: 7),
                    terminationReason: "Namespace RUNNINGBOARD, Code 0x2182bad2"),
            ],
            from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 10))
        let matched = recorder.match(CrashDiagnosticRecord.records(in: payload))
        #expect(matched.map(\.processID) == [8])
        #expect(matched.first?.confirmation?.match == .processID)
        #expect(recorder.terminations.map { $0.confirmation != nil } == [false, true])
        // A diagnostic matches once: delivered again, it confirms nothing new.
        #expect(recorder.match(CrashDiagnosticRecord.records(in: payload)).isEmpty)
    }

    @Test func withoutAProcessIDADiagnosticMatchesByBuildAndTime() throws {
        let recorder = FlightRecorder(
            storage: try storage(keeping: [
                termination(processID: 7, at: 1_000_000), termination(processID: 8, at: 2_000_000),
            ]),
            sources: [], configuration: .init(appBuild: "42"), processID: 9)
        let json = RecordedPayloads.olderWatchdogDiagnostic(
            build: "42", from: Date(timeIntervalSince1970: 2_000_030), to: Date(timeIntervalSince1970: 2_000_090))
        let matched = recorder.match(try MetricKitJSON.crashDiagnostics(in: Data(json.utf8)))
        #expect(matched.map(\.processID) == [8])
        #expect(
            matched.first?.confirmation
                == FieldConfirmation(
                    kind: .watchdog, terminationReason: "Namespace ASSERTIOND, Code 0x8badf00d", match: .buildAndTime))
    }

    @Test func anotherBuildOrAnUnrelatedCrashMatchesNothing() throws {
        let recorder = FlightRecorder(
            storage: try storage(keeping: [termination(processID: 4100, at: 1000, build: "41")]),
            sources: [], configuration: .init(appBuild: "42"), processID: 9)
        let crashes = try MetricKitJSON.crashDiagnostics(in: Data(RecordedPayloads.watchdogDiagnostic.utf8))
        #expect(recorder.match(crashes).isEmpty)
    }

    @Test func iOS27sTaskTimeoutCategoryCountsAsABackgroundTaskTimeout() {
        let timeout = CrashDiagnosticRecord(
            category: StandInTerminationCategory.taskTimeout, appBuild: "42", processID: 5)
        #expect(timeout.kind == .backgroundTaskTimeout)
        let watchdog = CrashDiagnosticRecord(
            category: StandInTerminationCategory.watchdog, appBuild: "42", processID: 5)
        #expect(watchdog.kind == .other)
        let unknown = CrashDiagnosticRecord(
            category: StandInTerminationCategory?.none, appBuild: "42", processID: 5)
        #expect(unknown.kind == .other)
    }

    @Test func exitCountsComeThroughTheMirror() {
        let counts = BackgroundExitCounts(
            StandInBackgroundExitData(), appBuild: "42", periodStart: nil, periodEnd: nil)
        #expect(counts == BackgroundExitCounts(backgroundTaskAssertionTimeout: 2, normal: 3, other: 1, appBuild: "42"))
    }
}
