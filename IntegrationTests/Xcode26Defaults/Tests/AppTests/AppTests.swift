import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKitTesting
import BackgroundTaskTracing
import Foundation
import Testing

@testable import App
@testable import FieldApp

/// The app's code, tested as an Xcode 26 app target would be (default MainActor isolation).
@Suite(.serialized)
struct AppTests {
    @Test func theCacheCleanupOnItsQueueIsReachedAndEnded() async throws {
        let simulator = BackgroundTaskSimulator()
        let cache = ImageCache()
        try await withProcessWideBackgroundTaskBackend(simulator) {
            await withCheckedContinuation { continuation in
                cache.scheduleCleanup { continuation.resume() }
            }
        }
        #expect(simulator.assertionHistory.map(\.assertion.name) == ["Image cache cleanup"])
        try simulator.expectNoLeaks()
    }

    @Test func anUploadCutShortByExpiryEndsItsTaskAndTheLogSeesIt() async throws {
        let simulator = BackgroundTaskSimulator()
        let log = TaskLog()
        let (manager, handle) = Launch.diagnosedManager(
            backend: simulator, configuration: UploadQueue.configuration, log: log)
        let uploads = UploadQueue(manager: manager)
        simulator.enterBackground()
        let upload = Task {
            try await uploads.upload("video") {
                for _ in 0..<100_000 where !Task.isCancelled { await Task.yield() }
                try Task.checkCancellation()
            }
        }
        for _ in 0..<50 { await Task.yield() }
        simulator.advance(by: 30)
        await #expect(throws: CancellationError.self) { try await upload.value }
        uploads.manager.diagnostics?.waitForObservers()
        for _ in 0..<20 { await Task.yield() }  // main-actor deliveries
        #expect(log.lines.contains { $0.hasPrefix("expired") })
        handle?.remove()
        try simulator.expectNoLeaks()
    }

    @Test func theDocumentTheFeedAndTheExporterEndEveryTask() async throws {
        let simulator = BackgroundTaskSimulator()
        let document = Document()
        document.save(backend: simulator)
        var pages: [Int] = []
        document.compact(pages: 3, backend: simulator) { pages.append($0) }
        let feed = FeedModel()
        try await feed.refresh(backend: LoggingBackend(wrapped: simulator, label: "app")) { ["a", "b"] }
        let exporter = LegacyExporter()
        exporter.start(backend: simulator)
        exporter.finish()
        #expect(document.saved)
        #expect(pages == [0, 1, 2])
        #expect(feed.items == ["a", "b"])
        #expect(simulator.assertionHistory.map(\.assertion.name).contains("app: Refresh feed"))
        try simulator.expectNoLeaks()
    }

    @Test func aDiagnosingBackendReportsTheCallSites() throws {
        let simulator = BackgroundTaskSimulator()
        let log = TaskLog()
        let diagnostics = Launch.diagnosing(simulator, log: log)
        SafeBackgroundTask.begin("Diagnosed", backend: diagnostics).end()
        #expect(diagnostics.report().callSites.count == 1)
        try simulator.expectNoLeaks()
    }

    @Test func aTracedSDKLeakIsRescuedAndTheRecorderSeesACleanRun() throws {
        let simulator = BackgroundTaskSimulator()
        let application = SimulatedApplication(simulator: simulator)
        let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true), clockOf: simulator)
        application.installTracer(tracer)
        let diagnostics = Launch.diagnosing(simulator, log: TaskLog())
        let storage = MemoryFlightStorage()
        let recorder = FieldSetUp.recorder(storage: storage, diagnostics: diagnostics, tracer: tracer)
        _ = application.beginBackgroundTask(withName: "SDK flush") {}
        simulator.enterBackground()
        simulator.advance(by: 31)
        #expect(simulator.termination == nil)
        #expect(tracer.report().callSites.first?.rescued == 1)
        recorder.waitUntilWritten()
        let next = FlightRecorder(storage: storage, sources: [], configuration: .init(appBuild: "1"), processID: 1)
        guard case .clean = next.previousRun else {
            Issue.record("expected a clean previous run, got \(next.previousRun)")
            return
        }
    }
}

/// The trait with a default (coalescing, lingering) manager, as an app's or an SDK's tests use it.
@Suite struct TraitTests {
    @Test(.backgroundTaskSimulator) func uploadsThatEndPassThoughTheSharedAssertionLingers() async throws {
        let uploads = UploadQueue()  // a manager on the trait's simulator
        try await uploads.upload("photo") { await Task.yield() }
        try await uploads.upload("video") { await Task.yield() }
        #expect(uploads.uploaded == ["photo", "video"])
    }
}
