import BackgroundTaskAudit
import Foundation
import Testing

/// This project follows its own advice: the library's sources and the tools' audit clean.
struct PackageSourcesTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("The library's and the tools' Sources audit clean")
    func packageSourcesAuditClean() async throws {
        let folders = ["Sources", "Tools/Sources"].map { Self.repositoryRoot.appendingPathComponent($0).path }
        let report = try await Auditor().audit(paths: folders)
        #expect(report.filesScanned > 50)
        #expect(report.findings.map { "\($0.path):\($0.location.line) \($0.ruleID)" } == [])
        #expect(report.skipped == [])
    }
}
