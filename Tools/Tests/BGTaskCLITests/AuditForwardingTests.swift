import Foundation
import Testing

@testable import BGTaskCLI

/// `bgtask audit …` runs `bgtask-audit` with the same arguments and exits as it does.
struct AuditForwardingTests {
    /// Runs the forwarding with its output captured in files, and returns the exit status and what it printed.
    private func forward(_ arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forward-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("out")
        let errorsURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorsURL)
        let result = AuditForwarding.run(arguments, environment: environment, output: output, errors: errors)
        try output.close()
        try errors.close()
        let printed = try String(contentsOf: outputURL, encoding: .utf8)
        return (result.exitStatus, printed + result.standardOutput, try String(contentsOf: errorsURL, encoding: .utf8))
    }

    /// The `bgtask-audit` SwiftPM built beside this test bundle.
    private var builtAudit: String? {
        let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        return folder.map { $0.appendingPathComponent("bgtask-audit").path }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }

    @Test func theAuditsOwnToolRunsWithTheSameArgumentsAndItsExitStatus() throws {
        let tool = try #require(builtAudit, "swift build --build-tests builds bgtask-audit beside the tests")
        let (status, output, _) = try forward(["--version"], environment: ["BGTASK_AUDIT": tool])
        #expect(status == 0)
        #expect(output.hasPrefix("bgtask-audit \(BGTask.version) "))
        let (usageStatus, _, errors) = try forward(["--frobnicate", "."], environment: ["BGTASK_AUDIT": tool])
        #expect(usageStatus == 2)
        #expect(errors.contains("unknown option '--frobnicate'"))
    }

    @Test func theToolBesideBgtaskIsFoundWithoutTheVariable() throws {
        let tool = try #require(builtAudit)
        #expect(AuditForwarding.locate(environment: ["PATH": ""])?.path == tool)
    }

    @Test func aMissingToolIsAnErrorThatSaysHowToBuildIt() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)").path
        let result = AuditForwarding.run(["."], environment: ["BGTASK_AUDIT": missing])
        #expect(result.exitStatus == 2)
        #expect(result.standardError.contains("swift build -c release --package-path Tools --product bgtask-audit"))
    }
}
