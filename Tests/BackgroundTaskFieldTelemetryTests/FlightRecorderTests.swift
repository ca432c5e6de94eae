import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation
import TestSupport
import Testing

/// One simulated run of an app: the simulator, a traced application, a diagnosing backend for the
/// app's own tasks, and a flight recorder over both.
@MainActor
private struct SimulatedRun {
    let simulator = BackgroundTaskSimulator()
    let application: SimulatedApplication
    let tracer: BackgroundTaskTracer
    let diagnostics: DiagnosingBackend
    let recorder: FlightRecorder

    init(processID: Int32, storage: any FlightRecorderStorage, rescue: Bool = false, build: String = "42") {
        application = SimulatedApplication(simulator: simulator)
        tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: rescue), clockOf: simulator)
        application.installTracer(tracer)
        diagnostics = DiagnosingBackend(wrapping: simulator)
        recorder = FlightRecorder(
            storage: storage, sources: [diagnostics, tracer],
            configuration: .init(appBuild: build, appVersion: "1.0"), applicationState: simulator,
            processID: processID
        )
    }

    /// Lets the events reach the recorder and its writes finish.
    func settle() {
        tracer.waitForObservers()
        diagnostics.waitForObservers()
        recorder.waitUntilWritten()
    }
}

@MainActor
struct FlightRecorderTests {
    @Test func aRunKilledWhileHoldingAnAssertionIsNamedAtTheNextLaunchAndMatchedToMetricKit() throws {
        let storage = MemoryStorage()
        do {
            let run = SimulatedRun(processID: 4100, storage: storage)
            #expect(run.recorder.previousRun == .none)
            let upload = SafeBackgroundTask.begin("Upload", backend: run.diagnostics)
            _ = LeakySDK.flushQueue(on: run.application)
            run.simulator.enterBackground()
            run.simulator.advance(by: 5)
            upload.end()
            run.simulator.advance(by: 26)
            #expect(run.simulator.termination?.code == .watchdogTimeout)
            run.settle()

            let snapshot = try #require(storage.snapshot)
            #expect(snapshot.processID == 4100 && snapshot.appBuild == "42" && snapshot.inBackground == true)
            #expect(snapshot.moment == .heldAfterHandlers)
            let task = try #require(snapshot.tasks.first)
            #expect(snapshot.tasks.count == 1)
            #expect(task.callSite.function.contains("LeakySDK.flushQueue"))
            #expect(task.name == "LeakySDK.flush" && task.source == "tracer")
            #expect(task.expiryStarted && task.handlerReturned)
        }

        // The process vanished. The next launch:
        let next = SimulatedRun(processID: 4177, storage: storage)
        guard case .probableBackgroundTaskTermination(let record) = next.recorder.previousRun else {
            Issue.record("expected a probable termination, got \(next.recorder.previousRun)")
            return
        }
        #expect(record.processID == 4100 && record.appBuild == "42")
        #expect(record.evidence == .heldAfterHandlers)
        #expect(record.callSites.count == 1)
        #expect(record.callSites.first?.function.contains("LeakySDK.flushQueue") == true)

        // MetricKit delivers the crash diagnostic of that run (a recorded payload).
        let diagnostics = try MetricKitJSON.crashDiagnostics(in: Data(RecordedPayloads.watchdogDiagnostic.utf8))
        let matched = next.recorder.match(diagnostics)
        #expect(matched.count == 1)
        #expect(
            matched.first?.confirmation
                == FieldConfirmation(
                    kind: .backgroundTaskTimeout, terminationReason: diagnostics.first?.terminationReason,
                    match: .processID))
        #expect(next.recorder.terminations.first?.confirmation?.kind == .backgroundTaskTimeout)
    }

    @Test func aRunWhoseTasksAllEndedBeforeItVanishedIsClean() throws {
        let storage = MemoryStorage()
        do {
            let run = SimulatedRun(processID: 1, storage: storage)
            let identifier = LeakySDK.flushQueue(on: run.application)
            run.simulator.enterBackground()
            run.simulator.advance(by: 2)
            run.settle()
            #expect(storage.snapshot?.tasks.count == 1)
            run.application.endBackgroundTask(identifier)
            run.settle()
            #expect(storage.snapshot?.moment == .lastTaskEnded)
            #expect(storage.snapshot?.tasks == [])
        }
        let next = SimulatedRun(processID: 2, storage: storage)
        guard case .clean = next.recorder.previousRun else {
            Issue.record("expected a clean previous run, got \(next.recorder.previousRun)")
            return
        }
        #expect(next.recorder.terminations.isEmpty)
    }

    @Test func withRescueTheRunSurvivesAndLeavesNoProbableTermination() throws {
        let storage = MemoryStorage()
        do {
            let run = SimulatedRun(processID: 7, storage: storage, rescue: true)
            _ = LeakySDK.flushQueue(on: run.application)
            run.simulator.enterBackground()
            run.simulator.advance(by: 31)
            #expect(run.simulator.termination == nil)
            run.settle()
            #expect(storage.snapshot?.tasks == [])
        }
        let next = SimulatedRun(processID: 8, storage: storage)
        guard case .clean = next.recorder.previousRun else {
            Issue.record("expected a clean previous run, got \(next.recorder.previousRun)")
            return
        }
    }

    @Test func aTaskHeldWhenTheAppReturnedToTheForegroundIsNotATermination() {
        let storage = MemoryStorage()
        do {
            let run = SimulatedRun(processID: 11, storage: storage)
            _ = LeakySDK.flushQueue(on: run.application)
            run.simulator.enterBackground()
            run.simulator.advance(by: 3)
            run.simulator.enterForeground()
            run.settle()
            #expect(storage.snapshot?.moment == .enteredForeground)
            #expect(storage.snapshot?.inBackground == false)
        }
        let next = SimulatedRun(processID: 12, storage: storage)
        guard case .clean = next.recorder.previousRun else {
            Issue.record("expected a clean previous run, got \(next.recorder.previousRun)")
            return
        }
    }

    /// Once the last task ends in the background, the app may be suspended at once (and evicted later,
    /// which must not read as a termination): the clean snapshot is on disk before the system hears of
    /// the end.
    @Test func theLastEndInTheBackgroundIsWrittenBeforeTheSystemHearsOfIt() async throws {
        let storage = MemoryStorage()
        let run = SimulatedRun(processID: 41, storage: storage)
        let identifier = LeakySDK.flushQueue(on: run.application)
        run.simulator.enterBackground()
        run.settle()
        #expect(storage.snapshot?.tasks.count == 1)

        run.simulator.faults = [.holdOffMainCalls(.ends)]
        let application = run.application
        Thread.detachNewThread { application.endBackgroundTask(identifier) }
        try await run.simulator.waitForHeldCalls(1)
        // The end has not reached the system, and the snapshot already says nothing is held.
        #expect(run.simulator.outstanding.count == 1)
        #expect(storage.snapshot?.tasks == [])
        #expect(storage.snapshot?.moment == .lastTaskEnded)
        run.simulator.releaseHeldCalls()
        run.simulator.faults = []
    }

    /// An assertion held after its handler: the snapshot that names it is on disk before the handlers
    /// are over (the system terminates the app right after).
    @Test func anAssertionHeldAfterItsHandlerIsWrittenBeforeTheTermination() throws {
        let storage = MemoryStorage()
        let run = SimulatedRun(processID: 42, storage: storage)
        _ = LeakySDK.flushQueue(on: run.application)
        run.simulator.enterBackground()
        run.simulator.advance(by: 31)
        #expect(run.simulator.termination != nil)
        // No waiting for observers or the recorder's queue: written inside the handler call.
        #expect(storage.snapshot?.moment == .heldAfterHandlers)
        #expect(storage.snapshot?.tasks.first?.handlerReturned == true)
        run.settle()
        // A later write (an event delivered late, a request) keeps the label the state deserves.
        run.recorder.recordNow()
        run.recorder.waitUntilWritten()
        #expect(storage.snapshot?.moment == .heldAfterHandlers)
    }

    /// In the foreground, tasks that begin and end cost no file writes: nothing there can be a
    /// background-task termination.
    @Test func inTheForegroundTasksCostNoWrites() {
        let storage = MemoryStorage()
        let run = SimulatedRun(processID: 43, storage: storage)
        run.settle()
        let before = run.recorder.writeCount
        for _ in 0..<20 {
            let identifier = LeakySDK.flushQueue(on: run.application)
            run.application.endBackgroundTask(identifier)
            SafeBackgroundTask.begin("Save", backend: run.diagnostics).end()
        }
        run.settle()
        #expect(run.recorder.writeCount == before)
        #expect([.launched, .enteredForeground].contains(storage.snapshot?.moment))
    }

    @Test func aWriteThatCrashesMidwayLeavesTheLastSnapshotWhole() throws {
        let storage = MemoryStorage()
        let run = SimulatedRun(processID: 21, storage: storage)
        _ = LeakySDK.flushQueue(on: run.application)
        run.simulator.enterBackground()
        run.settle()
        let before = try #require(storage.snapshot)
        #expect([.enteredBackground, .taskBegan].contains(before.moment) && before.tasks.count == 1)

        storage.failNextWrites(1)
        run.recorder.recordNow()
        run.recorder.waitUntilWritten()
        #expect(storage.snapshot == before)
        #expect(run.recorder.lastError?.contains("CrashedMidWrite") == true)
    }

    @Test func anUnreadableSnapshotIsReportedAndReplaced() throws {
        let storage = MemoryStorage()
        storage.corrupt(FlightRecorder.snapshotFileName, with: "{\"version\": 1, \"proc")
        let run = SimulatedRun(processID: 31, storage: storage)
        guard case .unreadable = run.recorder.previousRun else {
            Issue.record("expected an unreadable snapshot, got \(run.recorder.previousRun)")
            return
        }
        run.settle()
        #expect(storage.snapshot?.processID == 31)
    }

    @Test func aSnapshotIsBoundedInTasksAndNameLength() throws {
        let storage = MemoryStorage()
        let simulator = BackgroundTaskSimulator()
        let diagnostics = DiagnosingBackend(wrapping: simulator)
        let recorder = FlightRecorder(
            storage: storage, sources: [diagnostics],
            configuration: .init(maximumTasks: 4, maximumNameLength: 10, appBuild: "1"), processID: 3)
        let long = String(repeating: "n", count: 10_000)
        let tasks = (0..<50).map { _ in SafeBackgroundTask.begin(long, backend: diagnostics) }
        recorder.recordNow()
        recorder.waitUntilWritten()
        let snapshot = try #require(storage.snapshot)
        #expect(snapshot.tasks.count == 4 && snapshot.omittedTaskCount == 46)
        #expect(snapshot.tasks.allSatisfy { $0.name?.count == 10 })
        #expect(storage.size(of: FlightRecorder.snapshotFileName) < 4_096)
        for task in tasks { task.end() }
    }

    @Test func keptTerminationsAreBounded() throws {
        let storage = MemoryStorage()
        for processID in 1...6 {
            let run = SimulatedRun(processID: Int32(processID), storage: storage)
            _ = LeakySDK.flushQueue(on: run.application)
            run.simulator.enterBackground()
            run.settle()
        }
        let last = FlightRecorder(
            storage: storage, sources: [], configuration: .init(keptTerminations: 3, appBuild: "42"), processID: 99)
        #expect(last.terminations.map(\.processID) == [4, 5, 6])
    }

    @Test func realFilesAreWrittenAtomicallyAndReadAtTheNextLaunch() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flight-recorder-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileFlightRecorderStorage(directory: directory)
        do {
            let run = SimulatedRun(processID: 501, storage: storage)
            _ = LeakySDK.uploadWithStaleCapture(on: run.application)
            run.simulator.enterBackground()
            run.simulator.advance(by: 31)
            run.settle()
        }
        // A crashed writer's leftover temporary file beside the snapshot changes nothing.
        try Data("{\"partial".utf8).write(to: directory.appendingPathComponent(".background-task-snapshot.json.tmp"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains(FlightRecorder.snapshotFileName))

        let next = SimulatedRun(processID: 502, storage: storage)
        guard case .probableBackgroundTaskTermination(let record) = next.recorder.previousRun else {
            Issue.record("expected a probable termination, got \(next.recorder.previousRun)")
            return
        }
        #expect(record.callSites.first?.function.contains("uploadWithStaleCapture") == true)
        next.settle()
        let data = try #require(try storage.read(FlightRecorder.snapshotFileName))
        #expect(try JSONDecoder().decode(FlightRecorderSnapshot.self, from: data).processID == 502)
    }
}
