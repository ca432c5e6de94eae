import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import BackgroundTaskTracing
import Foundation

// The field telemetry product, as an app with Xcode 26's defaults uses it. In a folder of its own,
// outside Sources/: the shared type-check of Sources/ compiles against the core module alone, and
// Scripts/apple-typecheck-products.sh checks this target against every product.

/// A flight-recorder storage of the app's own (an in-memory one here): `nonisolated`, like the custom
/// backend, because the recorder writes from its own queue.
nonisolated final class MemoryFlightStorage: FlightRecorderStorage {
    private let lock = NSLock()
    nonisolated(unsafe) private var files: [String: Data] = [:]

    func read(_ name: String) throws -> Data? {
        lock.withLock { files[name] }
    }

    func write(_ data: Data, to name: String) throws {
        lock.withLock { files[name] = data }
    }
}

/// Whole-process coverage at launch: the tracer's events and a flight recorder over the app's
/// diagnostics and a tracer.
enum FieldSetUp {
    static func recorder(
        storage: any FlightRecorderStorage,
        diagnostics: DiagnosingBackend,
        tracer: BackgroundTaskTracer
    ) -> FlightRecorder {
        tracer.addObserver { event in
            if case .heldAfterExpirationHandlers = event.kind { print("leak by", event.callSite) }
        }
        let recorder = FlightRecorder(
            storage: storage, sources: [diagnostics, tracer], configuration: .init(appBuild: "1"),
            applicationState: diagnostics.applicationStateReporting)
        if case .probableBackgroundTaskTermination(let record) = recorder.previousRun {
            print("probably killed for", record.callSites)
        }
        return recorder
    }
}
