// `swift run -c release --package-path Benchmarks FieldCost [pairs] [snapshots]`
//
// What the tracer adds to each raw begin/end, and what one flight-recorder snapshot costs, on this
// machine's wall clock (best of five runs; the figures go into Documentation/Performance.md).
//
// - The tracer: a minimal application whose "original" begin and end only count, called N times
//   directly, then through an installed `BackgroundTaskTracer` (caller attribution by `dladdr`, cached
//   per call site), then with 8-frame backtraces. The difference is the tracer's cost per call;
//   UIKit's own begin (an IPC to the system) costs far more on a device.
// - `FIELDCOST_ONLY=traced` (or `direct`, `backtrace`) runs one configuration `pairs` times and exits,
//   for instruction counts with callgrind (run it on a copy stripped of debug info).
// - Growth: the heap in use before and after `pairs` more traced pairs (after as many to warm up):
//   a tracer keeps nothing per assertion once it has ended.
// - The flight recorder: `recordNow()` + `waitUntilWritten()` with 1, 10 and 32 held tasks, on real
//   files in a temporary directory (atomic write: temporary file and rename), and the bytes written.
import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import BackgroundTaskTracing
import Foundation
import HeapStatistics

/// The smallest application the tracer can intercept: its originals hand out numbers and count ends.
final class CountingApplication: TracedApplication, @unchecked Sendable {  // counters only touched by one thread
    struct TaskIdentifier: BackgroundTaskIdentifierMirror {
        var rawValue: Int
        static let invalid = TaskIdentifier(rawValue: 0)
    }

    var tracer: BackgroundTaskTracer?
    var next = 1
    var ended = 0

    @inline(never)
    func beginBackgroundTask(withName name: String?, expirationHandler: (@MainActor @Sendable () -> Void)?)
        -> TaskIdentifier
    {
        guard let tracer else { return originalBegin() }
        let stack = TracedCallStack.capture(frames: tracer.configuration.backtraceDepth)
        let identifier = tracer.interceptBegin(
            on: self, named: name, expirationHandler: expirationHandler, callStack: stack
        ) { _, _ in originalBegin() }
        return withExtendedLifetime(stack) { identifier }
    }

    @inline(never)
    func endBackgroundTask(_ identifier: TaskIdentifier) {
        guard let tracer else { return originalEnd(identifier) }
        tracer.interceptEnd(on: self, identifier) { originalEnd($0) }
    }

    func endBackgroundTaskBypassingTracer(_ identifier: TaskIdentifier) { originalEnd(identifier) }

    private func originalBegin() -> TaskIdentifier {
        defer { next += 1 }
        return TaskIdentifier(rawValue: next)
    }

    private func originalEnd(_ identifier: TaskIdentifier) { ended += 1 }
}

/// Seconds for `body`, best of five.
func best(_ body: () -> Void) -> Double {
    (0..<5).map { _ in
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }.min()!
}

/// A third-party call site: begins and ends one task.
@inline(never)
func sdkFlush(_ application: CountingApplication) {
    let identifier = application.beginBackgroundTask(withName: "Flush", expirationHandler: {})
    application.endBackgroundTask(identifier)
}

let arguments = CommandLine.arguments
let pairs = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
let snapshots = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200

func pairCost(_ configuration: BackgroundTaskTracer.Configuration?) -> Double {
    let application = CountingApplication()
    application.tracer = configuration.map { BackgroundTaskTracer(configuration: $0) }
    return best { for _ in 0..<pairs { sdkFlush(application) } } / Double(pairs) * 1e9
}

// `FIELDCOST_ONLY=direct|traced|backtrace`: run one configuration once and nothing else (for callgrind:
// `instructions.sh`-style counts of two pair counts give the instructions per pair).
if let only = ProcessInfo.processInfo.environment["FIELDCOST_ONLY"] {
    let application = CountingApplication()
    switch only {
    case "traced": application.tracer = BackgroundTaskTracer()
    case "backtrace": application.tracer = BackgroundTaskTracer(configuration: .init(backtraceDepth: 8))
    default: break
    }
    for _ in 0..<pairs { sdkFlush(application) }
    exit(0)
}

let direct = pairCost(nil)
let traced = pairCost(BackgroundTaskTracer.Configuration())
let withBacktraces = pairCost(BackgroundTaskTracer.Configuration(backtraceDepth: 8))
print("Tracer, \(pairs) begin+end pairs (ns per pair, best of 5):")
print("  direct (no tracer)        \(String(format: "%8.1f", direct))")
print("  traced                    \(String(format: "%8.1f", traced))  (+\(String(format: "%.1f", traced - direct)))")
print(
    "  traced, 8-frame backtrace \(String(format: "%8.1f", withBacktraces))  (+\(String(format: "%.1f", withBacktraces - direct)))"
)

do {
    let application = CountingApplication()
    application.tracer = BackgroundTaskTracer()
    for _ in 0..<pairs { sdkFlush(application) }
    let before = heap_statistics_bytes_in_use()
    for _ in 0..<pairs { sdkFlush(application) }
    let after = heap_statistics_bytes_in_use()
    print(
        "  growth over \(pairs) traced pairs   "
            + String(format: "%.3f bytes kept per pair", (Double(after) - Double(before)) / Double(pairs))
    )
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("field-cost-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
print("Flight recorder, \(snapshots) snapshots on real files (µs per snapshot, best of 5):")
for held in [1, 10, 32] {
    let diagnostics = DiagnosingBackend(wrapping: UnlimitedBackend())
    let storage = FileFlightRecorderStorage(directory: directory.appendingPathComponent("\(held)"))
    let recorder = FlightRecorder(storage: storage, sources: [diagnostics], configuration: .init(appBuild: "1"))
    let identifiers = (0..<held).compactMap { index in
        diagnostics.beginBackgroundTask(
            named: "Upload photo library batch \(index)",
            callSite: BackgroundTaskCallSite(fileID: "App/Uploader.swift", line: 100 + index, function: "upload(_:)"),
            expirationHandler: nil)
    }
    recorder.waitUntilWritten()
    let seconds = best {
        for _ in 0..<snapshots {
            recorder.recordNow()
            recorder.waitUntilWritten()
        }
    }
    let bytes = (try? storage.read(FlightRecorder.snapshotFileName))??.count ?? 0
    print(
        "  \(String(format: "%2d", held)) tasks held  \(String(format: "%8.1f", seconds / Double(snapshots) * 1e6))  (\(bytes) bytes)"
    )
    for identifier in identifiers { diagnostics.endBackgroundTask(identifier) }
}
