// swift-tools-version:6.0
// 6.0 is the lowest tools version with the Swift 6 language mode (`swiftLanguageModes`), which turns
// on complete strict concurrency checking; it also accepts every deployment target listed below.
import PackageDescription

let package = Package(
    name: "BackgroundTaskKit",
    platforms: [
        .iOS(.v15),
        .tvOS(.v15),
        .watchOS(.v8),
        .visionOS(.v1),
        .macOS(.v12),
        .macCatalyst(.v15),
    ],
    products: [
        .library(name: "BackgroundTaskKit", targets: ["BackgroundTaskKit"]),
        .library(name: "BackgroundTaskDiagnostics", targets: ["BackgroundTaskDiagnostics"]),
        .library(name: "BackgroundTaskTracing", targets: ["BackgroundTaskTracing"]),
        .library(name: "BackgroundTaskFieldTelemetry", targets: ["BackgroundTaskFieldTelemetry"]),
        .library(name: "BackgroundTaskKitTesting", targets: ["BackgroundTaskKitTesting"]),
        .library(name: "BackgroundTaskSimulation", targets: ["BackgroundTaskSimulation"]),
        .library(name: "BackgroundTaskKitObjC", targets: ["BackgroundTaskKitObjC"]),
        .library(name: "BackgroundTaskScheduling", targets: ["BackgroundTaskScheduling"]),
        .library(name: "BackgroundTaskTimeline", targets: ["BackgroundTaskTimeline"]),
    ],
    targets: [
        // The library: the seam, the real backends, the engine and the four safe faces, with its privacy manifest
        // (no tracking, no data collected, no required-reason API: `Documentation/ForSDKVendors.md`).
        .target(name: "BackgroundTaskKit", resources: [.copy("PrivacyInfo.xcprivacy")]),
        // Diagnostics over the core: the ledger (counters per call site, reports, stale and limit
        // warnings), observers, `DiagnosingBackend`, a manager's diagnostics, unified logging.
        .target(name: "BackgroundTaskDiagnostics", dependencies: ["BackgroundTaskKit"]),
        // Field telemetry over the core: the flight recorder, the next launch's probable terminations,
        // MetricKit mirrors and matching (the only module that imports MetricKit).
        .target(
            name: "BackgroundTaskFieldTelemetry",
            dependencies: [
                "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskTracing", "BackgroundTaskTimeline",
            ]
        ),
        // The tracer: every raw begin and end in the process, by caller, and the rescue (the only module
        // that exchanges methods or looks symbols up).
        .target(name: "BackgroundTaskTracing", dependencies: ["BackgroundTaskKit", "BackgroundTaskDiagnostics"]),
        // BGTaskScheduler tasks over the core's engine: `SafeTaskScheduler`, `SafeScheduledTask`, the seam and mirrors.
        .target(name: "BackgroundTaskScheduling", dependencies: ["BackgroundTaskKit"]),
        // The Objective-C face (`BTKBackgroundTask`) over the core's `SafeBackgroundTask`.
        .target(name: "BackgroundTaskKitObjC", dependencies: ["BackgroundTaskKit"]),
        // The iOS-policy simulator, without Swift Testing: for XCTest suites and tools (`bgtask` uses it).
        .target(
            name: "BackgroundTaskSimulation",
            dependencies: [
                "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskTracing", "BackgroundTaskScheduling",
                "BackgroundTaskTimeline",
            ]
        ),
        // What test targets import: the simulator plus helpers that record Swift Testing issues.
        .target(
            name: "BackgroundTaskKitTesting", dependencies: ["BackgroundTaskSimulation", "BackgroundTaskTimeline"]),
        // The randomized checker of the package's promise over the simulator (tests and `promise-check`).
        .target(
            name: "BackgroundTaskPromiseChecking",
            dependencies: [
                "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskSimulation",
                "BackgroundTaskScheduling",
            ]
        ),
        // `swift run -c release promise-check --steps 1000000`: the long run of the checker.
        .executableTarget(name: "promise-check", dependencies: ["BackgroundTaskPromiseChecking"]),
        // `swift run -c release thread-stress [rounds]`: six real threads race every face against expiry,
        // dropping tasks to the default leak handler (CI runs it plain and under the thread sanitizer).
        .executableTarget(name: "thread-stress", dependencies: ["BackgroundTaskKit", "BackgroundTaskScheduling"]),
        // Timelines: the picture of a run (lanes per assertion, the app's state, the budget, the termination) as SVG
        // or text. Depends on nothing; the simulator and the field telemetry make timelines of their data.
        // It imports no Foundation; `rounded()` needs the C maths library, which Linux links only on request.
        .target(
            name: "BackgroundTaskTimeline",
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]
        ),
        // Helpers the test targets share (an event log, a handler journal, waiting without blocking).
        .target(
            name: "TestSupport", dependencies: ["BackgroundTaskKitTesting", "BackgroundTaskDiagnostics"],
            path: "Tests/TestSupport"
        ),
        // The core's tests: the seam, the backends, the engine and the faces (on the simulator).
        .testTarget(
            name: "BackgroundTaskKitTests",
            dependencies: [
                "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskKitTesting",
                "BackgroundTaskPromiseChecking",
                "BackgroundTaskKitObjC",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "BackgroundTaskDiagnosticsTests",
            dependencies: ["BackgroundTaskDiagnostics", "BackgroundTaskKitTesting", "TestSupport"]
        ),
        .testTarget(
            name: "BackgroundTaskSimulationTests",
            dependencies: [
                "BackgroundTaskDiagnostics", "BackgroundTaskKitTesting", "BackgroundTaskPromiseChecking", "TestSupport",
            ],
            // The tracer names callers with `dladdr`, which sees only exported symbols: export the test
            // code's, as a framework exports its own (on Apple platforms executables already do).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "BackgroundTaskTracingTests",
            dependencies: [
                "BackgroundTaskTracing", "BackgroundTaskDiagnostics", "BackgroundTaskKitTesting", "TestSupport",
            ],
            // The tracer names callers with `dladdr`, which sees only exported symbols: export the test
            // code's, as a framework exports its own (on Apple platforms executables already do).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "BackgroundTaskFieldTelemetryTests",
            dependencies: [
                "BackgroundTaskFieldTelemetry", "BackgroundTaskDiagnostics", "BackgroundTaskTracing",
                "BackgroundTaskKitTesting", "TestSupport",
            ],
            // Snapshots name the tracer's callers, found with `dladdr`: export the test code's symbols.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "BackgroundTaskSchedulingTests",
            dependencies: ["BackgroundTaskScheduling", "BackgroundTaskKitTesting", "TestSupport"]
        ),
        .testTarget(name: "BackgroundTaskTimelineTests", dependencies: ["BackgroundTaskTimeline", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
