#!/usr/bin/env bash
# Uses the latest release the way an SDK vendor and its client do, from a clone without tags:
#   1. clones this repository with --no-tags and runs Scripts/restore-release-tags.sh in the clone;
#   2. an SDK package depends on the clone by URL `from:` the latest release (as the README says), is tagged 1.0.0,
#      and its tests use the test kit's `.backgroundTaskSimulator` trait: the test whose manager's tasks all end
#      passes; the test that leaks fails, and the failure points at the test;
#   3. an app package depends on the SDK by URL `from: "1.0.0"` and builds: SwiftPM accepts a tagged SDK that depends
#      on a release; and the SDK's next tag, on a revision of the same commit, is refused ("unstable-version").
#
# Usage: bash Scripts/release-check.sh [VERSION]   (default: the latest release in CHANGELOG.md)
# Needs git and a Swift toolchain, no network (file URLs). CI runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="${1:-$(grep -m1 -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\]' "$root/CHANGELOG.md" | tr -d '#[] ')}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=release-check GIT_AUTHOR_EMAIL=release-check@localhost
export GIT_COMMITTER_NAME=release-check GIT_COMMITTER_EMAIL=release-check@localhost

echo "== a clone without tags, tags restored"
git clone -q --no-tags "file://$root" "$work/BackgroundTaskKit"
[ -z "$(git -C "$work/BackgroundTaskKit" tag)" ] || { echo "the clone has tags already"; exit 1; }
bash "$work/BackgroundTaskKit/Scripts/restore-release-tags.sh"
git -C "$work/BackgroundTaskKit" rev-parse -q --verify "refs/tags/$version" >/dev/null \
    || { echo "no tag $version after restoring"; exit 1; }

echo "== an SDK that depends on BackgroundTaskKit from: \"$version\""
sdk="$work/MySDK"
mkdir -p "$sdk/Sources/MySDK" "$sdk/Tests/MySDKTests"
cat >"$sdk/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MySDK",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [.library(name: "MySDK", targets: ["MySDK"])],
    dependencies: [.package(url: "file://$work/BackgroundTaskKit", from: "$version")],
    targets: [
        .target(name: "MySDK", dependencies: [.product(name: "BackgroundTaskKit", package: "BackgroundTaskKit")]),
        .testTarget(
            name: "MySDKTests",
            dependencies: ["MySDK", .product(name: "BackgroundTaskKitTesting", package: "BackgroundTaskKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
cat >"$sdk/Sources/MySDK/Uploader.swift" <<'SWIFT'
import BackgroundTaskKit

/// An SDK's uploader: one manager of its own, its leaks reported to the SDK, never to the host app's handler.
public final class Uploader: Sendable {
    let manager = BackgroundTaskManager(leakHandler: { leak in print("MySDK leak: \(leak)") })

    public init() {}

    public func upload(_ name: String) throws {
        let task = try manager.beginTask("Upload \(name)")
        // … the upload …
        task.end()
    }

    public func startForgottenUpload(_ name: String) throws {
        _ = try manager.beginTask("Forgotten \(name)")
    }
}
SWIFT
cat >"$sdk/Tests/MySDKTests/UploaderTests.swift" <<'SWIFT'
import BackgroundTaskKitTesting
import MySDK
import Testing

@Test(.backgroundTaskSimulator) func uploadsEndTheirTasks() throws {
    let uploader = Uploader()
    try uploader.upload("a")
    try uploader.upload("b")
}

@Test(.backgroundTaskSimulator) func aForgottenUploadLeaks() throws {
    try Uploader().startForgottenUpload("c")
}
SWIFT
git -C "$sdk" init -q
git -C "$sdk" add -A
git -C "$sdk" commit -qm "MySDK 1.0.0"
git -C "$sdk" tag 1.0.0
swift build --package-path "$sdk"
swift test --package-path "$sdk" --filter uploadsEndTheirTasks
set +e
leak=$(swift test --package-path "$sdk" --filter aForgottenUploadLeaks 2>&1)
status=$?
set -e
echo "$leak" | grep -E "✘|recorded an issue" || true
[ "$status" != "0" ] || { echo "the leaking test passed"; exit 1; }
grep -q "aForgottenUploadLeaks() recorded an issue at UploaderTests.swift:11:" <<<"$leak" \
    || { echo "the leak is not recorded at the test (UploaderTests.swift:11)"; exit 1; }

echo "== an app that depends on the SDK from: \"1.0.0\""
app="$work/MyApp"
mkdir -p "$app/Sources/MyApp"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [.package(url: "file://$sdk", from: "1.0.0")],
    targets: [.executableTarget(name: "MyApp", dependencies: [.product(name: "MySDK", package: "MySDK")])],
    swiftLanguageModes: [.v6]
)
SWIFT
cat >"$app/Sources/MyApp/main.swift" <<'SWIFT'
import MySDK

try Uploader().upload("launch")
print("MyApp uploaded")
SWIFT
swift run --package-path "$app" MyApp

echo "== the same SDK depending on a revision instead: its client refuses it (why an SDK needs a release)"
revision=$(git -C "$work/BackgroundTaskKit" rev-parse "$version^{commit}")
sed -i "s|from: \"$version\")|revision: \"$revision\")|" "$sdk/Package.swift"
grep -q "revision: \"$revision\"" "$sdk/Package.swift"
git -C "$sdk" commit -qam "MySDK 1.0.1, on a revision"
git -C "$sdk" tag 1.0.1
sed -i 's|from: "1.0.0")|exact: "1.0.1")|' "$app/Package.swift"
rm -rf "$app/.build" "$app/Package.resolved"
set +e
refused=$(swift build --package-path "$app" --disable-dependency-cache 2>&1)
status=$?
set -e
[ "$status" != "0" ] && grep -q "unstable-version package" <<<"$refused" \
    || { echo "$refused"; echo "an SDK on a revision was not refused as expected"; exit 1; }
grep "unstable-version package" <<<"$refused" | head -1
echo "release $version resolves from a clone without tags; an SDK tagged against it is accepted by its client"
