// swift-tools-version: 6.2
// A client built the way Xcode 26 builds a new app target: default MainActor isolation and the
// "approachable concurrency" features. It uses every public API of BackgroundTaskKit the way an app
// would; CI builds it and runs its tests. Not part of the library.

import PackageDescription

let appSettings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "Xcode26Defaults",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(name: "BackgroundTaskKit", path: "../..")],
    targets: [
        .target(
            name: "App",
            dependencies: [.product(name: "BackgroundTaskKit", package: "BackgroundTaskKit")],
            swiftSettings: appSettings
        ),
        // The add-on products: diagnostics, tracing and field telemetry (a flight recorder with a storage
        // of the app's own, over a tracer).
        .target(
            name: "FieldApp",
            dependencies: [
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskFieldTelemetry", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTracing", package: "BackgroundTaskKit"),
            ],
            path: "Field/FieldApp",
            swiftSettings: appSettings
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "FieldApp", .product(name: "BackgroundTaskKitTesting", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskDiagnostics", package: "BackgroundTaskKit"),
                .product(name: "BackgroundTaskTracing", package: "BackgroundTaskKit"),
            ],
            swiftSettings: appSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
