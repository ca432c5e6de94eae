// swift-tools-version:6.0
// BackgroundTaskKit's tools: `bgtask` (`simulate`, `audit`, `report`), `bgtask-audit`, the audit as a library, the bug-pattern
// catalog the simulator runs, and the two audit plugins. A package of its own so that the library's package,
// the one apps and SDKs depend on, has no tool code and no dependencies. It uses the library from the folder
// above; SwiftPM reads a package by URL only at a repository's root, so a client uses this one by path (a
// checkout or a submodule: `Documentation/Audit.md`).
import PackageDescription

let package = Package(
    name: "BackgroundTaskKitTools",
    platforms: [.macOS(.v12)],
    products: [
        .executable(name: "bgtask", targets: ["bgtask"]),
        .executable(name: "bgtask-audit", targets: ["bgtask-audit"]),
        .library(name: "BackgroundTaskAudit", targets: ["BackgroundTaskAudit"]),
        .plugin(name: "AuditBackgroundTasks", targets: ["AuditBackgroundTasks"]),
        .plugin(name: "AuditBackgroundTasksBuildTool", targets: ["AuditBackgroundTasksBuildTool"]),
    ],
    dependencies: [
        .package(name: "BackgroundTaskKit", path: ".."),
        // The Swift parser the audit reads Swift with. 600 is the release for Swift 6.0; later ones build with it too.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // The catalog of bug patterns that `bgtask simulate` runs on the simulator, written naively and with
        // each face (the starters).
        .target(
            name: "BackgroundTaskScenarios",
            dependencies: [
                .product(name: "BackgroundTaskKit", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskSimulation", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTracing", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskScheduling", package: "BackgroundTaskKit"),
            ]
        ),
        // The source scanner behind `bgtask audit`: finds risky raw background-task call sites in Swift
        // and Objective-C. It reads a tree into the code model (its Objective-C front end, and the Swift one).
        .target(name: "BackgroundTaskAudit", dependencies: ["AuditCodeModel", "SwiftAuditFrontEnd"]),
        // What both command lines share: their result type and the release they belong to.
        .target(name: "CommandLineSupport"),
        // The audit's command line, kept apart from `main` so that it can be tested.
        .target(name: "AuditCommandLine", dependencies: ["BackgroundTaskAudit", "CommandLineSupport"]),
        // `bgtask-audit`, the audit's own tool (`bgtask audit` runs it): built apart, so that `bgtask simulate`
        // builds without the audit's parser.
        .executableTarget(name: "bgtask-audit", dependencies: ["AuditCommandLine"]),
        // The audit's code model: bodies, statements, calls and closures from either language, and the project-wide
        // index of declarations the rules follow calls through. Depends on nothing.
        .target(name: "AuditCodeModel"),
        // Swift into the code model, through the Swift parser.
        .target(
            name: "SwiftAuditFrontEnd",
            dependencies: [
                "AuditCodeModel", .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        // The command-line logic of `bgtask`, kept apart from `main` so that it can be tested.
        .target(
            name: "BGTaskCLI",
            dependencies: [
                "BackgroundTaskScenarios", "CommandLineSupport",
                .product(name: "BackgroundTaskFieldTelemetry", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTimeline", package: "BackgroundTaskKit"),
            ]
        ),
        .executableTarget(name: "bgtask", dependencies: ["BGTaskCLI"]),
        // `swift package audit-background-tasks`: runs `bgtask-audit` over the package's source targets.
        .plugin(
            name: "AuditBackgroundTasks",
            capability: .command(
                intent: .custom(
                    verb: "audit-background-tasks",
                    description: "Finds risky raw background-task call sites in the package's sources"
                )
            ),
            dependencies: ["bgtask-audit"]
        ),
        // Applied to a target, shows `bgtask-audit`'s findings in its sources as build warnings.
        .plugin(name: "AuditBackgroundTasksBuildTool", capability: .buildTool(), dependencies: ["bgtask-audit"]),
        // The library's SVG reader for tests (`../Tests/TestSupport/SVGDocument.swift`, through a link: a
        // target's files must be inside its package) and identifiers for expected events.
        .target(
            name: "ToolTestSupport",
            dependencies: [.product(name: "BackgroundTaskKit", package: "BackgroundTaskKit")],
            path: "Tests/ToolTestSupport"
        ),
        // The catalog: every scenario and variant ends as the catalog says, with its explanations and timelines.
        .testTarget(
            name: "BackgroundTaskScenariosTests",
            dependencies: [
                "BackgroundTaskScenarios", "ToolTestSupport",
                .product(name: "BackgroundTaskKitTesting", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
            ]
        ),
        // `bgtask`, and the documented outputs of both tools.
        .testTarget(
            name: "BGTaskCLITests",
            dependencies: [
                "BGTaskCLI", "AuditCommandLine", "CommandLineSupport", "ToolTestSupport",
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskFieldTelemetry", package: "BackgroundTaskKit"),
            ]
        ),
        // The code model as both front ends build it, and the index's look-ups.
        .testTarget(
            name: "AuditCodeModelTests", dependencies: ["AuditCodeModel", "SwiftAuditFrontEnd", "BackgroundTaskAudit"]),
        // `bgtask-audit`'s options, baselines and explanations.
        .testTarget(name: "AuditCommandLineTests", dependencies: ["AuditCommandLine", "BackgroundTaskAudit"]),
        // The fixture corpus is sample code to scan, not code to compile.
        .testTarget(name: "BackgroundTaskAuditTests", dependencies: ["BackgroundTaskAudit"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
