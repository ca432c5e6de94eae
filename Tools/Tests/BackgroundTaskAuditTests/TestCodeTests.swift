import BackgroundTaskAudit
import Foundation
import Testing

/// Test code (test folders, test and mock files, files that import a test framework) is not an app
/// beginning tasks: its findings are counted and left out unless `--include-tests`, and marked when shown
/// (issue 23).
struct TestCodeTests {
    private static let raw = """
        func stub() {
            let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
            UIApplication.shared.endBackgroundTask(id)
        }
        """

    private func findings(_ source: String, path: String, includingTests: Bool = false) -> [Finding] {
        Auditor(configuration: AuditConfiguration(includesTestCode: includingTests)).audit(source: source, path: path)
    }

    @Test(arguments: [
        "App/Tests/Uploader.swift", "AppTests/UploaderTests.swift", "Sources/Mocks/Application.swift",
        "MatrixSDKTests/MXBackgroundTaskUnitTests.swift", "App/UploaderTests.swift", "App/MockApplication.swift",
        "App/SessionSpec.swift", "App/UITests/Flow.swift", "App/ApplicationMock.swift",
    ])
    func aFileInATestFolderOrNamedAsATestOrMockIsTestCode(path: String) {
        #expect(findings(Self.raw, path: path).isEmpty, "\(path)")
        #expect(!findings(Self.raw, path: path, includingTests: true).isEmpty, "\(path)")
    }

    @Test(arguments: [
        "import XCTest\n", "@testable import App\n", "import Testing\n", "  import Quick\n",
        "@import XCTest;\n", "#import <XCTest/XCTest.h>\n", "#import <OCMock/OCMock.h>\n",
    ])
    func aFileThatImportsATestFrameworkIsTestCode(header: String) {
        let path = header.contains("#import") || header.contains("@import ") ? "App/Upload.m" : "App/Upload.swift"
        let source =
            path.hasSuffix(".m")
            ? header
                + "- (void)stub { UIBackgroundTaskIdentifier t = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:nil]; }\n"
            : header + Self.raw
        #expect(findings(source, path: path).isEmpty, "\(header)")
        #expect(!findings(source, path: path, includingTests: true).isEmpty, "\(header)")
    }

    @Test(arguments: [
        "import UIKit\n", "// import XCTest\n", "import XCTestHelpers\n", "let testing = 1\n",
    ])
    func appCodeIsAuditedAsBefore(header: String) {
        #expect(!findings(header + Self.raw, path: "App/Sources/Upload.swift").isEmpty, "\(header)")
    }

    @Test(arguments: ["App/Contest/Upload.swift", "App/TestFlight/Upload.swift", "App/Attest.swift"])
    func namesThatOnlyContainTestAreAppCode(path: String) {
        #expect(!findings(Self.raw, path: path).isEmpty, "\(path)")
    }

    @Test func shownFindingsInTestCodeSayTheyAreInTestCode() {
        let shown = findings(Self.raw, path: "AppTests/UploaderTests.swift", includingTests: true)
        #expect(!shown.isEmpty)
        #expect(shown.allSatisfy { $0.message.hasPrefix("In test code: ") })
        #expect(findings(Self.raw, path: "App/Upload.swift").allSatisfy { !$0.message.hasPrefix("In test code") })
    }

    @Test func aWholeAuditCountsTheFindingsLeftOutAndSaysHowToSeeThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("testcode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tests = folder.appendingPathComponent("AppTests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Self.raw.write(to: tests.appendingPathComponent("UploaderTests.swift"), atomically: true, encoding: .utf8)
        try Self.raw.write(to: folder.appendingPathComponent("Upload.swift"), atomically: true, encoding: .utf8)

        let report = try await Auditor().audit(paths: [folder.path])
        let appFindings = report.findings.count
        #expect(appFindings > 0)
        #expect(report.findings.allSatisfy { $0.path.hasSuffix("/Upload.swift") })
        #expect(report.testCodeCount == appFindings)
        #expect(report.summary.hasSuffix(", \(appFindings) in test code not shown (--include-tests)."))
        #expect(report.json().contains("\"testCodeNotShown\" : \(appFindings)"))

        let all = try await Auditor(configuration: AuditConfiguration(includesTestCode: true)).audit(paths: [
            folder.path
        ])
        #expect(all.findings.count == 2 * appFindings)
        #expect(all.testCodeCount == 0)
        #expect(all.summary.hasSuffix(" skipped."))
        #expect(!all.json().contains("testCodeNotShown"))
    }

    /// Only folders below what the command line names count: a project kept under `~/IntegrationTests/`
    /// (or a build plugin's absolute paths) is not test code.
    @Test func foldersAboveTheAuditedPathDoNotMakeTestCode() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("testcode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let project = base.appendingPathComponent("IntegrationTests/RiskyApp")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let file = project.appendingPathComponent("Upload.swift")
        try Self.raw.write(to: file, atomically: true, encoding: .utf8)

        let folderReport = try await Auditor().audit(paths: [project.path])
        #expect(!folderReport.findings.isEmpty)
        #expect(folderReport.testCodeCount == 0)
        let fileReport = try await Auditor().audit(paths: [file.path])
        #expect(fileReport.findings.count == folderReport.findings.count)
        let aboveReport = try await Auditor().audit(paths: [base.path])
        #expect(aboveReport.findings.isEmpty)
        #expect(aboveReport.testCodeCount == folderReport.findings.count)
    }
}
