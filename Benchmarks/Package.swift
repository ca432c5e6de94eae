// swift-tools-version:6.0
// Performance measurements, kept out of the main package so that its users never build them.
// Run from the package root: swift run -c release --package-path Benchmarks AuditBenchmark
import PackageDescription

let package = Package(
    name: "BackgroundTaskKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The main package, by path.
        .package(name: "BackgroundTaskKit", path: "..")
    ],
    targets: [
        // Generates a tree of about a million lines of Swift and Objective-C and times `bgtask audit` on it.
        .executableTarget(
            name: "AuditBenchmark",
            dependencies: [.product(name: "BackgroundTaskAudit", package: "BackgroundTaskKit")]
        )
    ],
    swiftLanguageModes: [.v6]
)
