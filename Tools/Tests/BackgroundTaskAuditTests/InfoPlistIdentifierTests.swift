import BackgroundTaskAudit
import Foundation
import Testing

/// BT014 reads the app's `BGTaskSchedulerPermittedIdentifiers` from the property lists under the audited folders.
struct InfoPlistIdentifierTests {
    private static let source = """
        import BackgroundTasks

        final class AppDelegate {
            func register() {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refersh", using: nil) { task in
                    task.expirationHandler = { feed.cancel() }
                    feed.refresh { ok in task.setTaskCompleted(success: ok) }
                }
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            }
        }
        """

    private static func plist(_ identifiers: [String]) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleName": "App", "BGTaskSchedulerPermittedIdentifiers": identifiers],
            format: .xml, options: 0)
    }

    @Test func anIdentifierMissingFromTheTreesInfoPlistIsReported() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("App/AppDelegate.swift", Self.source)
        _ = try folder.write("App/Info.plist", try Self.plist(["com.example.refresh"]))
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(report.findings.map(\.ruleID) == ["BT014"])
        #expect(report.findings.first?.location.line == 5)
        #expect(report.findings.first?.message.contains("\"com.example.refersh\"") == true)
    }

    @Test func withoutAPlistListingIdentifiersNothingIsChecked() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("App/AppDelegate.swift", Self.source)
        _ = try folder.write("App/Settings.plist", Data("<plist><dict/></plist>".utf8))
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(report.findings.isEmpty)
    }

    @Test func theConfigurationsListTakesThePlaceOfThePlist() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("App/AppDelegate.swift", Self.source)
        _ = try folder.write("App/Info.plist", try Self.plist(["com.example.refresh"]))
        var configuration = AuditConfiguration()
        configuration.permittedTaskIdentifiers = ["com.example.*"]
        let report = try await Auditor(configuration: configuration).audit(paths: [folder.path])
        #expect(report.findings.isEmpty)
    }

    @Test func anIdentifierGivenByAConstantOrTheBundleIdentifierIsCheckedToo() async throws {
        let source = """
            import BackgroundTasks

            final class Sync {
                private let taskID = "io.example.sync"
                private static let chaffID = "\\(Bundle.main.bundleIdentifier!).chaff"
                func register() {
                    BGTaskScheduler.shared.register(
                        forTaskWithIdentifier: taskID, using: nil) { task in task.setTaskCompleted(success: true) }
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: Sync.chaffID, using: nil) { task in
                        task.setTaskCompleted(success: true)
                    }
                }
            }
            """
        let folder = try TemporaryFolder()
        _ = try folder.write("App/Sync.swift", source)
        _ = try folder.write(
            "App/Info.plist", try Self.plist(["io.example.refresh", "$(PRODUCT_BUNDLE_IDENTIFIER).refresh"]))
        let report = try await Auditor().audit(paths: [folder.path])
        #expect(report.findings.map(\.ruleID) == ["BT014", "BT014"])
        #expect(report.findings.map(\.location.line) == [8, 9])
        #expect(report.findings.last?.message.contains("\"$(PRODUCT_BUNDLE_IDENTIFIER).chaff\"") == true)

        // Listed, by the same build variable or by the literal that ends like it: nothing to report.
        _ = try folder.write(
            "App/Info.plist", try Self.plist(["io.example.sync", "${PRODUCT_BUNDLE_IDENTIFIER}.chaff"]))
        #expect(try await Auditor().audit(paths: [folder.path]).findings.isEmpty)
        _ = try folder.write("App/Info.plist", try Self.plist(["io.example.sync", "com.example.app.chaff"]))
        #expect(try await Auditor().audit(paths: [folder.path]).findings.isEmpty)
    }

    @Test func aLiteralIdentifierIsPermittedByAnEntryBuiltFromTheBundleIdentifier() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("App/AppDelegate.swift", Self.source.replacingOccurrences(of: "refersh", with: "refresh"))
        _ = try folder.write("App/Info.plist", try Self.plist(["$(PRODUCT_BUNDLE_IDENTIFIER).refresh"]))
        #expect(try await Auditor().audit(paths: [folder.path]).findings.isEmpty)
    }
}
