// swift-tools-version:6.0
// A client in the plain Swift 6 language mode (no default MainActor isolation): the forms of `onExpiration` that
// compile for a class on its own queue, an actor and a main-actor class. CI builds it with warnings as errors and
// runs its tests.
import PackageDescription

let package = Package(
    name: "PlainSwift6",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(name: "BackgroundTaskKit", path: "../..")],
    targets: [
        .target(name: "Uploads", dependencies: [.product(name: "BackgroundTaskKit", package: "BackgroundTaskKit")]),
        .testTarget(
            name: "UploadsTests",
            dependencies: ["Uploads", .product(name: "BackgroundTaskKitTesting", package: "BackgroundTaskKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
