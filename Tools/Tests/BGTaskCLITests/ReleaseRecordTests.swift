import BGTaskCLI
import Foundation
import Testing

/// What `CHANGELOG.md` records of each release, and the places that state the latest one.
enum ReleaseRecord {
    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()  // Tools/Tests/BGTaskCLITests/… → the repository

    struct Release: Equatable {
        var version: String
        /// The release commit, or `nil` when the section records none.
        var commit: String?
    }

    static func changelog() throws -> String {
        try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    }

    /// The release sections, newest first: `## [x.y.z] - date`, each with its `Release commit:` line.
    static func releases(in changelog: String) -> [Release] {
        var releases: [Release] = []
        for line in changelog.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ["), !line.hasPrefix("## [Unreleased]") {
                releases.append(Release(version: String(line.dropFirst(4).prefix { $0 != "]" }), commit: nil))
            } else if line.hasPrefix("Release commit: `"), let last = releases.indices.last,
                releases[last].commit == nil
            {
                releases[last].commit = String(line.dropFirst("Release commit: `".count).prefix { $0 != "`" })
            }
        }
        return releases
    }

    /// Whether the `[Unreleased]` section lists a change (a `- ` line).
    static func hasUnreleasedChanges(_ changelog: String) -> Bool {
        guard let start = changelog.range(of: "## [Unreleased]") else { return false }
        let rest = changelog[start.upperBound...]
        let section = rest.range(of: "\n## [").map { rest[..<$0.lowerBound] } ?? rest
        return section.split(separator: "\n").contains { $0.hasPrefix("- ") }
    }

    /// Whether the tests run in a git checkout with its history (not a source archive or a shallow clone).
    static var hasHistory: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)
            && git(["rev-parse", "--is-shallow-repository"])?.hasPrefix("false") == true
    }

    /// `git ARGUMENTS` in the repository: its standard output, or `nil` when it fails.
    static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}

/// Releases that resolve without tags travelling: every release records its commit, the recorded commit is that
/// release, and the version is stated alike wherever it is stated.
struct ReleaseRecordTests {
    @Test func everyReleaseRecordsItsReleaseCommit() throws {
        let releases = ReleaseRecord.releases(in: try ReleaseRecord.changelog())
        #expect(releases.count >= 2)
        for release in releases {
            let commit = try #require(release.commit, "release \(release.version) records no release commit")
            #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit), "\(release.version): \(commit)")
        }
        #expect(Set(releases.map(\.version)).count == releases.count)
    }

    @Test(.enabled(if: ReleaseRecord.hasHistory, "needs the repository's history"))
    func eachRecordedCommitIsItsRelease() throws {
        for release in ReleaseRecord.releases(in: try ReleaseRecord.changelog()) {
            let commit = try #require(release.commit)
            // At the release commit, that release is the latest in the CHANGELOG and nothing is unreleased.
            let changelog = try #require(
                ReleaseRecord.git(["show", "\(commit):CHANGELOG.md"]),
                "\(release.version): commit \(commit) is not in this clone (git fetch --unshallow)")
            #expect(ReleaseRecord.releases(in: changelog).first?.version == release.version)
            #expect(!ReleaseRecord.hasUnreleasedChanges(changelog), "\(release.version) left changes unreleased")
            // Where the command line states its version (in the tool package, or before it in the library's), it
            // states this release.
            let places = ["Tools/Sources/CommandLineSupport/ToolRelease.swift", "Sources/BGTaskCLI/BGTask.swift"]
            if let source = places.lazy.compactMap({ ReleaseRecord.git(["show", "\(commit):\($0)"]) }).first,
                source.contains("static let version")
            {
                #expect(source.contains("public static let version = \"\(release.version)\""))
            }
        }
    }

    @Test func theReadmeAndTheDocCCatalogInstallTheLatestRelease() throws {
        let latest = try #require(ReleaseRecord.releases(in: try ReleaseRecord.changelog()).first).version
        let readme = try String(contentsOf: ReleaseRecord.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("The current release is \(latest)"))
        #expect(readme.contains("from: \"\(latest)\""))
        #expect(readme.contains("bash Scripts/restore-release-tags.sh"))
        let landing = try String(
            contentsOf: ReleaseRecord.root.appendingPathComponent(
                "Sources/BackgroundTaskKit/BackgroundTaskKit.docc/BackgroundTaskKit.md"), encoding: .utf8)
        #expect(landing.contains("from: \"\(latest)\""))
        let vendors = try String(
            contentsOf: ReleaseRecord.root.appendingPathComponent("Documentation/ForSDKVendors.md"), encoding: .utf8)
        #expect(vendors.contains("from: \"\(latest)\""))
    }

    @Test func theChangelogIsReadAsItIsWritten() {
        let changelog = """
            ## [Unreleased]

            ### Added

            - Something new.

            ## [2.1.0] - 2026-12-01

            Release commit: `\(String(repeating: "a", count: 40))`

            ## [2.0.0] - 2026-11-25

            """
        #expect(
            ReleaseRecord.releases(in: changelog) == [
                .init(version: "2.1.0", commit: String(repeating: "a", count: 40)),
                .init(version: "2.0.0", commit: nil),
            ])
        #expect(ReleaseRecord.hasUnreleasedChanges(changelog))
        #expect(!ReleaseRecord.hasUnreleasedChanges("## [Unreleased]\n\nNothing yet.\n\n## [1.0.0] - 2026-11-22\n"))
    }
}
