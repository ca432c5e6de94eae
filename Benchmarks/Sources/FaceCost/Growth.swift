import BackgroundTaskDiagnostics
import BackgroundTaskKit
import FaceBenchmarkSupport
import Foundation

/// `FaceCost growth <count>`: whether a long run keeps anything per operation.
///
/// For every face and peer on every backend that runs here (`UnlimitedBackend`; `ApplicationBackend`
/// and `ProcessActivityBackend` over stand-ins of `UIApplication` and `ProcessInfo`; a
/// `DiagnosingBackend` with one observer; the benchmarks' `ExpirableBackend`), and for tasks dropped to the safety net and reads of the leak
/// handler: the heap in use after a warm-up of `count / 10` operations, then after `count` more. A
/// figure near 0 bytes per operation is flat; anything kept per operation shows as a steady figure.
enum Growth {
    static func run(count: Int) {
        print("growth: bytes in use kept per operation over \(count) operations, after \(count / 10) to warm up")
        print(label("face", 18) + label("backend", 21) + "   before (KB)    after (KB)   bytes/op")
        for backendName in ["unlimited", "application", "process-activity", "diagnosing+observer", "expirable"] {
            for face in Face.allCases {
                let backend = makeBackend(backendName)
                let rig = FaceRig(face, backend: backend)
                let (before, after) = measure(count) { n in
                    waiting { await rig.runPairsAsync(n) }
                    (backend as? DiagnosingBackend)?.waitForObservers()  // no events queued when measured
                }
                printRow(face.rawValue, backendName, before, after, count)
            }
        }
        // The safety net: each dropped task is ended and reported (to a handler that does nothing).
        let previous = BackgroundTaskLeakReporting.handler
        BackgroundTaskLeakReporting.handler = { _ in }
        let backend = UnlimitedBackend()
        let manager = BackgroundTaskManager(
            backend: backend, configuration: FaceRig.managerConfiguration(coalescing: true))
        let dropped = measure(count) { n in
            for _ in 0..<n { _ = SafeBackgroundTask.begin("dropped", backend: backend) }
        }
        printRow("safe, dropped", "unlimited", dropped.before, dropped.after, count)
        let managerDropped = measure(count) { n in
            for _ in 0..<n { _ = try? manager.beginTask("dropped") }
        }
        printRow("manager, dropped", "unlimited", managerDropped.before, managerDropped.after, count)
        let reads = measure(count) { n in
            for _ in 0..<n { _ = BackgroundTaskLeakReporting.handler }
        }
        printRow("leak handler read", "-", reads.before, reads.after, count)
        BackgroundTaskLeakReporting.handler = previous
    }

    private static func makeBackend(_ name: String) -> any BackgroundTaskBackend {
        switch name {
        case "diagnosing+observer":
            let diagnosing = DiagnosingBackend(wrapping: UnlimitedBackend())
            diagnosing.addObserver { _ in }
            return diagnosing
        case "expirable": return ExpirableBackend()
        case "application": return ApplicationBackend(CountingApplication())
        case "process-activity": return ProcessActivityBackend(CountingActivityManager(), options: [])
        default: return UnlimitedBackend()
        }
    }

    /// The heap in use after `count / 10` runs of `body`'s operations, and after `count` more.
    private static func measure(_ count: Int, _ body: (Int) -> Void) -> (before: Int, after: Int) {
        body(max(count / 10, 1))
        let before = HeapInUse.bytes()
        body(count)
        return (before, HeapInUse.bytes())
    }

    private static func printRow(_ face: String, _ backend: String, _ before: Int, _ after: Int, _ count: Int) {
        print(
            label(face, 18) + label(backend, 21) + column(Double(before) / 1024, 14, decimals: 1)
                + column(Double(after) / 1024, 14, decimals: 1)
                + column(Double(after - before) / Double(count), 11, decimals: 3)
        )
    }
}
