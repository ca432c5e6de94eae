// swift-tools-version:6.1
// Performance measurements, kept out of the main package so that its users never build them.
// 6.1: the lowest tools version that can enable a dependency's traits (ordo-one's `MallocInterposer`).
//
// Run from the package root (each target's comment below says what it measures):
//   swift run -c release --package-path Benchmarks AuditBenchmark
//   swift run -c release --package-path Benchmarks FieldCost
//   swift run -c release --package-path Benchmarks ScheduledCost
//   swift run -c release --package-path Benchmarks TimelineCost 10000
//   swift package --package-path Benchmarks benchmark --target FaceCosts      # ordo-one, a few minutes
//   bash Benchmarks/instructions.sh                                           # callgrind, needs valgrind
//
// Smoke test for CI (fails only on a crash, never on a figure; about 2 minutes with a cold build):
//   swift run -c release --package-path Benchmarks FaceCost all 1000
import PackageDescription

let package = Package(
    name: "BackgroundTaskKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The main package, by path.
        .package(name: "BackgroundTaskKit", path: ".."),
        // The tool package, for the audit.
        .package(name: "BackgroundTaskKitTools", path: "../Tools"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Generates a tree of about a million lines of Swift and Objective-C and times `bgtask audit` on it.
        .executableTarget(
            name: "AuditBenchmark",
            dependencies: [.product(name: "BackgroundTaskAudit", package: "BackgroundTaskKitTools")]
        ),
        // The faces, the peers they are measured against and the scenarios, shared by the two harnesses
        // below. Public API of BackgroundTaskKit only.
        .target(
            name: "FaceBenchmarkSupport",
            dependencies: [
                "HeapStatistics", .product(name: "BackgroundTaskKit", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskFieldTelemetry", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTracing", package: "BackgroundTaskKit"),
            ]
        ),
        // The allocator's bytes in use (glibc's `mallinfo2`, which Swift's Glibc module does not show).
        .target(name: "HeapStatistics"),
        // `FaceCost <face> <count>`: one face's begin+end pair, N times, with nothing else around it, so
        // that `instructions.sh` can count its instructions with callgrind.
        .executableTarget(
            name: "FaceCost",
            dependencies: [
                "FaceBenchmarkSupport", .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
            ]
        ),
        // `ScheduledCost [count]`: SafeTaskScheduler's cost per launched task (async work, callback, continued
        // processing) beside a hand-written BGTask handler, on stand-ins of the system's scheduler.
        .executableTarget(
            name: "ScheduledCost",
            dependencies: [.product(name: "BackgroundTaskScheduling", package: "BackgroundTaskKit")]
        ),
        // `TimelineCost [assertions]`: the time to draw a run of 10,000 assertions as SVG and text, folded and not.
        .executableTarget(
            name: "TimelineCost",
            dependencies: [
                .product(name: "BackgroundTaskTimeline", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskKitTesting", package: "BackgroundTaskKit"),
            ]
        ),
        // `FieldCost`: the tracer's cost per intercepted begin/end and the flight recorder's per snapshot.
        .executableTarget(
            name: "FieldCost",
            dependencies: [
                "HeapStatistics", .product(name: "BackgroundTaskKit", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskFieldTelemetry", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTracing", package: "BackgroundTaskKit"),
            ]
        ),
        // The ordo-one suite: time per pair, scaling with outstanding tasks, expiry, diagnostics, two
        // threads and memory per task, every face side by side in one run.
        .executableTarget(
            name: "FaceCosts",
            dependencies: [
                "FaceBenchmarkSupport",
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FaceCosts",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
