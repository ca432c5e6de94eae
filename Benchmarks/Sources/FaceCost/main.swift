import BackgroundTaskDiagnostics
import BackgroundTaskKit
import FaceBenchmarkSupport
import Foundation

// Usage:
//   FaceCost <face> <count>   runs <count> begin+end pairs of one face, with 10 of its tasks held
//                             outstanding, and nothing else: what instructions.sh counts with callgrind.
//   FaceCost all <count>      every face and peer, then every scenario once, small: a quick report and
//                             the CI smoke test (it fails only by crashing).
// With FACECOST_DIAGNOSTICS=1 in the environment, one face runs over a DiagnosingBackend with one
// observer (what the diagnostics target compares with off).
//   FaceCost growth <count>   heap in use before and after <count> operations of every face on every
//                             backend, dropped tasks and leak-handler reads: bytes kept per operation.
// Faces: raw, hand-written, safe, scoped, with, with-async, hand-written-async, manager, manager-separate.
// Allocations are counted only when ordo-one's malloc interposer is preloaded (instructions.sh does).

let faceNames = Face.allCases.map(\.rawValue).joined(separator: ", ")
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count > 0,
    ["all", "growth"].contains(arguments.first!) || Face(rawValue: arguments.first!) != nil
else {
    FileHandle.standardError.write(Data("usage: FaceCost <all | growth | \(faceNames)> <count>\n".utf8))
    exit(2)
}

/// Runs `operation` on the cooperative pool and waits for it. The main stays synchronous: with a
/// top-level `await` the main thread parks in `dispatchMain()`, where valgrind 3.19 crashes.
func waiting<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
    nonisolated(unsafe) var result: Result?  // written before `done` is signalled, read after
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        result = await operation()
        done.signal()
    }
    done.wait()
    return result!
}

/// Nanoseconds per item, for printing.
func nanoseconds(_ duration: Duration, per items: Int) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(items)
}

/// `value` with `decimals` decimals, right-aligned in `width` columns.
func column(_ value: Double?, _ width: Int, decimals: Int = 0) -> String {
    let text = value.map { String(format: "%.\(decimals)f", $0) } ?? "-"
    return String(repeating: " ", count: max(width - text.count, 0)) + text
}

/// `text` left-aligned in `width` columns.
func label(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(width - text.count, 0))
}

if let face = Face(rawValue: arguments.first!) {
    // One face: the pairs and nothing else; with the interposer, then their allocations and those of
    // 10,000 held tasks. One line of `key=value` fields, which instructions.sh reads.
    let rig: FaceRig
    var diagnostics: DiagnosingBackend?
    if ProcessInfo.processInfo.environment["FACECOST_DIAGNOSTICS"] == "1" {
        diagnostics = DiagnosingBackend(wrapping: UnlimitedBackend())
        diagnostics?.addObserver { _ in }
        rig = FaceRig(face, backend: diagnostics!)
    } else {
        rig = FaceRig(face)
    }
    let time = waiting { await rig.timePairs(count, holding: 10) }
    // Every event delivered before exit, so that a count of instructions includes the observer's.
    diagnostics?.waitForObservers()
    var line = "\(face.rawValue): pairs=\(count) " + String(format: "ns/pair=%.0f", nanoseconds(time, per: count))
    if let perPair = waiting({ await rig.pairAllocations(count, holding: 10) }),
        let perTask = waiting({ await FaceRig(face).heldAllocations(10_000) })
    {
        line += String(
            format: " mallocs/pair=%.2f bytes/pair=%.1f mallocs/task=%.2f live-bytes/task=%.1f bytes/task=%.1f",
            Double(perPair.mallocs) / Double(count),
            Double(perPair.allocatedBytes) / Double(count),
            Double(perTask.mallocs) / 10_000,
            Double(perTask.liveBytes) / 10_000,
            Double(perTask.allocatedBytes) / 10_000
        )
    }
    print(line)
    exit(0)
}

if arguments.first == "growth" {
    Growth.run(count: count)
    exit(0)
}

// MARK: - all

let heldMany = 10_000
print("FaceCost: \(count) pairs per face (one run each; the FaceCosts suite gives medians)")
if !MallocCounter.isAvailable {
    print(
        "allocations not counted: build the interposer with `swift build -c release --package-path Benchmarks "
            + "--product MallocInterposerSwift` and preload Benchmarks/.build/release/libMallocInterposerSwift.so"
    )
}
print(
    label("face", 16) + "  ns/pair@10  ns/pair@10k  10k/10  mallocs/pair  bytes/pair"
        + "  mallocs/task  live-bytes/task  bytes/task"
)
for face in Face.allCases {
    let few = nanoseconds(waiting { await FaceRig(face).timePairs(count, holding: 10) }, per: count)
    let many = nanoseconds(waiting { await FaceRig(face).timePairs(count, holding: heldMany) }, per: count)
    let perPair = waiting { await FaceRig(face).pairAllocations(count, holding: 10) }
    let perTask = waiting { await FaceRig(face).heldAllocations(heldMany) }
    print(
        label(face.rawValue, 16) + column(few, 12) + column(many, 13) + column(many / few, 8, decimals: 2)
            + column(perPair.map { Double($0.mallocs) / Double(count) }, 14, decimals: 2)
            + column(perPair.map { Double($0.allocatedBytes) / Double(count) }, 12, decimals: 1)
            + column(perTask.map { Double($0.mallocs) / Double(heldMany) }, 14, decimals: 2)
            + column(perTask.map { Double($0.liveBytes) / Double(heldMany) }, 17, decimals: 1)
            + column(perTask.map { Double($0.allocatedBytes) / Double(heldMany) }, 12, decimals: 1)
    )
}

print("expiry of 1000 tasks of one manager, inside one handler:")
for coalescing in [false, true] {
    let expiry = ManagerExpiry(tasks: 1_000, coalescing: coalescing)
    let time = expiry.expire()  // top-level code runs on the main actor
    print(
        "  " + label(coalescing ? "coalescing" : "not coalescing", 16)
            + String(format: "%.3f ms", nanoseconds(time, per: 1) / 1e6))
}

print("diagnostics on (DiagnosingBackend + 1 observer) / off, 10 held:")
for face in Face.allCases {
    let diagnostics = DiagnosingBackend(wrapping: UnlimitedBackend())
    diagnostics.addObserver { _ in }
    let on = waiting { await FaceRig(face, backend: diagnostics).timePairs(count, holding: 10) }
    diagnostics.waitForObservers()
    let off = waiting { await FaceRig(face).timePairs(count, holding: 10) }
    print("  " + label(face.rawValue, 16) + column(nanoseconds(on, per: 1) / nanoseconds(off, per: 1), 6, decimals: 2))
}

print("2 threads / 1 thread on one manager, throughput of pairs, 10 held:")
for face in [Face.manager, .managerSeparate] {
    let rig = FaceRig(face)
    let one = rig.timeConcurrentPairs(threads: 1, pairsPerThread: count, holding: 10)
    let two = rig.timeConcurrentPairs(threads: 2, pairsPerThread: count, holding: 10)
    print(
        "  " + label(face.rawValue, 16)
            + column(2 * nanoseconds(one, per: 1) / nanoseconds(two, per: 1), 6, decimals: 2))
}
