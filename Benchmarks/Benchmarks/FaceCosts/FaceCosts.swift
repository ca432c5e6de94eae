import BackgroundTaskDiagnostics
import BackgroundTaskKit
import Benchmark
import FaceBenchmarkSupport

// The cost of each face of BackgroundTaskKit next to two peers (raw backend calls and a minimal
// hand-written wrapper), over `UnlimitedBackend`, in one run:
//
//   Pair/<face>         time, instructions (where perf events are allowed) and mallocs per begin+end
//                       pair, 10 tasks held; ordo-one's own bookkeeping adds about 35 bytes a pair to
//                       "Malloc (bytes total)" (FaceCost's counts are exact)
//   Held/<face>         ns per pair with 10 and with 10,000 tasks held, and the ratio (target ≤ 120 %)
//   Memory/<face>       mallocs and bytes per outstanding task, 10,000 held (target ≤ 2 and ≤ 256 live)
//   Diagnostics/<face>  ns per pair over a DiagnosingBackend with one observer, and over the plain
//                       backend, and the ratio (target ≤ 130 %)
//   Threads/<manager>   pairs per ms with 1 and 2 threads on one manager, and the ratio (target ≥ 100 %)
//   Expiry/<manager>    one handler expiring 1,000 tasks of one manager (target ≤ 0.3 ms)
//
// Ratios are custom metrics in percent, because ordo-one metrics are integers: 104 means 1.04×.
// Run: swift package --package-path Benchmarks benchmark --target FaceCosts [--filter 'Held/.*']

/// Pairs per timed side in the benchmarks that compare two settings within one iteration.
private let pairsPerSide = 5_000
/// The tasks held outstanding in the "many" setting.
private let manyHeld = 10_000

/// A custom metric that ordo-one prints as an exact integer.
private func metric(_ name: String, prefersLarger: Bool = false) -> BenchmarkMetric {
    .custom(name, polarity: prefersLarger ? .prefersLarger : .prefersSmaller, useScalingFactor: false)
}

/// A configuration for custom metrics only.
private func customConfiguration(_ metrics: [BenchmarkMetric], seconds: Int = 2) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
        units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
        warmupIterations: 1,
        maxDuration: .seconds(seconds),
        maxIterations: 100
    )
}

/// Whole nanoseconds per item.
private func nanoseconds(_ duration: Duration, per items: Int) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int((seconds * 1_000_000_000 + attoseconds / 1_000_000_000) / Int64(items))
}

let benchmarks: @Sendable () -> Void = {
    for face in Face.allCases {
        pairBenchmark(face)
        heldBenchmark(face)
        memoryBenchmark(face)
        diagnosticsBenchmark(face)
    }
    for face in [Face.manager, .managerSeparate] {
        threadsBenchmark(face)
        expiryBenchmark(coalescing: face == .manager)
    }
}

/// Begin+end pairs with 10 tasks held, measured by ordo-one itself: 1,000 pairs an iteration, shown per pair.
private func pairBenchmark(_ face: Face) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal, .mallocBytesCount],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1)
    )
    let rig = FaceRig(face)
    if face.isAsync {
        Benchmark("Pair/\(face.rawValue)", configuration: configuration) { benchmark async in
            await rig.holdingAsync(10) {
                benchmark.startMeasurement()
                await rig.runPairsAsync(benchmark.scaledIterations.count)
                benchmark.stopMeasurement()
            }
        }
    } else {
        Benchmark("Pair/\(face.rawValue)", configuration: configuration) { benchmark in
            rig.holding(10) {
                benchmark.startMeasurement()
                rig.runPairs(benchmark.scaledIterations.count)
                benchmark.stopMeasurement()
            }
        }
    }
}

/// ns per pair with 10 and with 10,000 tasks of the same face held, timed in the same iteration.
private func heldBenchmark(_ face: Face) {
    let few = metric("ns per pair, 10 held")
    let many = metric("ns per pair, 10000 held")
    let ratio = metric("10000 held / 10 held, %")
    Benchmark("Held/\(face.rawValue)", configuration: customConfiguration([few, many, ratio], seconds: 3)) {
        benchmark async in
        let fewTime = await FaceRig(face).timePairs(pairsPerSide, holding: 10)
        let manyTime = await FaceRig(face).timePairs(pairsPerSide, holding: manyHeld)
        benchmark.measurement(few, nanoseconds(fewTime, per: pairsPerSide))
        benchmark.measurement(many, nanoseconds(manyTime, per: pairsPerSide))
        benchmark.measurement(ratio, Int((manyTime * 100 / fewTime).rounded()))
    }
}

/// Mallocs and bytes of 10,000 outstanding tasks, per task: the bytes that stay allocated, and all the
/// bytes allocated on the way (which includes what was copied and freed while the tasks were begun).
private func memoryBenchmark(_ face: Face) {
    let mallocs = metric("mallocs per 100 tasks")
    let liveBytes = metric("live bytes per task")
    let allocatedBytes = metric("allocated bytes per task")
    let configuration = customConfiguration([mallocs, liveBytes, allocatedBytes], seconds: 1)
    Benchmark("Memory/\(face.rawValue)", configuration: configuration) { benchmark async in
        guard let allocated = await FaceRig(face).heldAllocations(manyHeld) else {
            return benchmark.error("the malloc interposer is missing: build with the MallocInterposer trait")
        }
        benchmark.measurement(mallocs, 100 * allocated.mallocs / manyHeld)
        benchmark.measurement(liveBytes, allocated.liveBytes / manyHeld)
        benchmark.measurement(allocatedBytes, allocated.allocatedBytes / manyHeld)
    }
}

/// ns per pair over a `DiagnosingBackend` with one observer, and over the plain backend.
private func diagnosticsBenchmark(_ face: Face) {
    let off = metric("ns per pair, diagnostics off")
    let on = metric("ns per pair, diagnostics on")
    let ratio = metric("on / off, %")
    let diagnostics = DiagnosingBackend(wrapping: UnlimitedBackend())
    diagnostics.addObserver { _ in }
    let plainRig = FaceRig(face)
    let diagnosingRig = FaceRig(face, backend: diagnostics)
    Benchmark("Diagnostics/\(face.rawValue)", configuration: customConfiguration([off, on, ratio])) {
        benchmark async in
        let offTime = await plainRig.timePairs(pairsPerSide, holding: 10)
        let onTime = await diagnosingRig.timePairs(pairsPerSide, holding: 10)
        diagnostics.waitForObservers()  // not timed: the observer's queue drains on another thread
        benchmark.measurement(off, nanoseconds(offTime, per: pairsPerSide))
        benchmark.measurement(on, nanoseconds(onTime, per: pairsPerSide))
        benchmark.measurement(ratio, Int((onTime * 100 / offTime).rounded()))
    }
}

/// Throughput of pairs with 2 threads hammering one manager, against 1 thread.
private func threadsBenchmark(_ face: Face) {
    let one = metric("pairs per ms, 1 thread", prefersLarger: true)
    let two = metric("pairs per ms, 2 threads", prefersLarger: true)
    let ratio = metric("2 threads / 1 thread, %", prefersLarger: true)
    let rig = FaceRig(face)
    Benchmark("Threads/\(face.rawValue)", configuration: customConfiguration([one, two, ratio])) { benchmark in
        let oneTime = rig.timeConcurrentPairs(threads: 1, pairsPerThread: pairsPerSide, holding: 10)
        let twoTime = rig.timeConcurrentPairs(threads: 2, pairsPerThread: pairsPerSide, holding: 10)
        benchmark.measurement(one, 1_000_000 / nanoseconds(oneTime, per: pairsPerSide))
        benchmark.measurement(two, 1_000_000 / nanoseconds(twoTime, per: 2 * pairsPerSide))
        benchmark.measurement(ratio, Int((oneTime * 200 / twoTime).rounded()))
    }
}

/// One expiration handler ending all 1,000 tasks of one manager, on the main actor.
private func expiryBenchmark(coalescing: Bool) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(1),
        maxIterations: 200
    )
    let name = "Expiry/\(coalescing ? Face.manager.rawValue : Face.managerSeparate.rawValue), 1000 tasks"
    Benchmark(name, configuration: configuration) { benchmark async in
        let expiry = ManagerExpiry(tasks: 1_000, coalescing: coalescing)  // not measured
        nonisolated(unsafe) let benchmark = benchmark  // used on the main actor while this task waits
        await MainActor.run {
            benchmark.startMeasurement()
            _ = expiry.expire()
            benchmark.stopMeasurement()
        }
    }
}
