import BackgroundTaskAudit
import Foundation
import Testing

/// This package follows its own advice: its sources audit clean.
struct PackageSourcesTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("The package's own Sources audit clean")
    func packageSourcesAuditClean() async throws {
        let report = try await Auditor().audit(paths: [Self.packageRoot.appendingPathComponent("Sources").path])
        #expect(report.filesScanned > 50)
        #expect(report.findings.map { "\($0.path):\($0.location.line) \($0.ruleID)" } == [])
        #expect(report.skipped == [])
    }
}
