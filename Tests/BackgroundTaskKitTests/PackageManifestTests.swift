import Foundation
import Testing

/// What an app's privacy report and the Swift Package Index read from the package: the core's privacy manifest, a
/// declaration for every required-reason API a product an app links uses, and the documentation targets.
struct PackageManifestTests {
    /// The repository's root folder.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The modules of the library products an app links at run time.
    private static let appLinkedModules = [
        "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskTracing", "BackgroundTaskFieldTelemetry",
        "BackgroundTaskKitObjC", "BackgroundTaskScheduling", "BackgroundTaskTimeline",
    ]

    /// Apple's required-reason API categories and the symbols that use them (Apple's "Describing use of required
    /// reason API"), as they appear in Swift code.
    static let requiredReasonSymbols: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            #"\.creationDate\b"#, #"\.modificationDate\b"#, #"\bfileModificationDate\b"#,
            #"\bcontentModificationDateKey\b"#, #"\bcreationDateKey\b"#, #"\bNSFileCreationDate\b"#,
            #"\bNSFileModificationDate\b"#, #"\bgetattrlist(bulk|at)?\("#, #"\bfgetattrlist\("#, #"\b[fl]?stat(at)?\("#,
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": [#"\bsystemUptime\b"#, #"\bmach_absolute_time\("#],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            #"\bvolumeAvailableCapacity"#, #"\bvolumeTotalCapacity"#, #"\bNSFileSystemFreeSize\b"#,
            #"\bNSFileSystemSize\b"#, #"\bsystemFreeSize\b"#, #"\bsystemSize\b"#, #"\bf?statv?fs\("#,
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": [#"\bactiveInputModes\b"#],
        "NSPrivacyAccessedAPICategoryUserDefaults": [#"\bUserDefaults\b"#, #"\bNSUserDefaults\b"#],
    ]

    /// The required-reason categories `source` uses, comment lines left out.
    static func requiredReasonCategories(in source: String) throws -> Set<String> {
        let code = source.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
        }.joined(separator: "\n")
        var found: Set<String> = []
        for (category, patterns) in requiredReasonSymbols {
            for pattern in patterns
            where try NSRegularExpression(pattern: pattern).firstMatch(
                in: code, range: NSRange(code.startIndex..., in: code)) != nil
            {
                found.insert(category)
            }
        }
        return found
    }

    /// The categories a module's `PrivacyInfo.xcprivacy` declares, or `nil` without a manifest.
    private static func declaredCategories(ofModule module: String) throws -> Set<String>? {
        let url = root.appendingPathComponent("Sources/\(module)/PrivacyInfo.xcprivacy")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let manifest = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        let types = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        return Set(types.compactMap { $0["NSPrivacyAccessedAPIType"] as? String })
    }

    @Test func theCoreShipsAPrivacyManifestThatTracksAndCollectsNothing() throws {
        let url = Self.root.appendingPathComponent("Sources/BackgroundTaskKit/PrivacyInfo.xcprivacy")
        let manifest = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        // It reads the monotonic clock with clock_gettime, which is not a required-reason API.
        #expect(try Self.declaredCategories(ofModule: "BackgroundTaskKit") == [])
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains(#".target(name: "BackgroundTaskKit", resources: [.copy("PrivacyInfo.xcprivacy")])"#))
    }

    @Test(arguments: appLinkedModules)
    func everyRequiredReasonAPIAProductUsesIsDeclaredInItsManifest(module: String) throws {
        let folder = Self.root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var used: [String: String] = [:]  // category: a file that uses it
        for case let file as URL in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for category in try Self.requiredReasonCategories(in: source) { used[category] = file.lastPathComponent }
        }
        let declared = try Self.declaredCategories(ofModule: module) ?? []
        for (category, file) in used.sorted(by: { $0.key < $1.key }) {
            #expect(
                declared.contains(category),
                "\(module) uses \(category) (\(file)): declare it in its PrivacyInfo.xcprivacy")
        }
    }

    @Test(arguments: [
        ("let age = attributes.modificationDate", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("let up = ProcessInfo.processInfo.systemUptime", "NSPrivacyAccessedAPICategorySystemBootTime"),
        ("let t = mach_absolute_time()", "NSPrivacyAccessedAPICategorySystemBootTime"),
        ("UserDefaults.standard.set(1, forKey: k)", "NSPrivacyAccessedAPICategoryUserDefaults"),
        ("if lstat(path, &info) == 0 {}", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("statfs(path, &fs)", "NSPrivacyAccessedAPICategoryDiskSpace"),
    ])
    func theScanFindsEachCategorysAPIs(line: String, category: String) throws {
        #expect(try Self.requiredReasonCategories(in: line) == [category])
        #expect(try Self.requiredReasonCategories(in: "// " + line).isEmpty)
    }

    @Test func clockGettimeAndStateAreNotRequiredReasonAPIs() throws {
        #expect(try Self.requiredReasonCategories(in: "clock_gettime(CLOCK_MONOTONIC, &time); state(x)").isEmpty)
    }

    @Test func theSwiftPackageIndexBuildsEveryDocCCatalog() throws {
        let spi = try String(contentsOf: Self.root.appendingPathComponent(".spi.yml"), encoding: .utf8)
        let listed = Set(
            spi.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("- ") && !trimmed.contains(":") ? String(trimmed.dropFirst(2)) : nil
            })
        let sources = Self.root.appendingPathComponent("Sources")
        let catalogs = Set(
            try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { module in
                FileManager.default.fileExists(atPath: sources.appendingPathComponent("\(module)/\(module).docc").path)
            })
        #expect(listed == catalogs)
        #expect(spi.contains("documentation_targets:"))
    }
}
