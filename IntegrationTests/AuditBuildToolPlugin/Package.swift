// swift-tools-version:6.0
// A client that applies BackgroundTaskKit's build-tool plugin (from the tool package, `Tools/`) to a target with a
// deliberately risky raw background-task call. CI builds it and checks that the build prints the audit's warning for
// that call and still succeeds, and runs the command plugin on it. Not part of the library.

import PackageDescription

let package = Package(
    name: "AuditBuildToolPlugin",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(name: "BackgroundTaskKitTools", path: "../../Tools")],
    targets: [
        .target(
            name: "RiskyApp",
            plugins: [.plugin(name: "AuditBackgroundTasksBuildTool", package: "BackgroundTaskKitTools")]
        )
    ],
    swiftLanguageModes: [.v6]
)
