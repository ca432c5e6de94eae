import BackgroundTaskAudit
import Foundation
import Testing

/// The code-model engine (`--engine model`) as a user meets it: defect findings with the lines of their chain, proven
/// ones at the default level, suspected ones only with `--level suspected` and marked so in every format.
struct ModelEngineTests {
    /// A handler that ends the task only in a dispatched block (BT004, proven), and a second end of the same task by
    /// the work, with no reset (BT007, proven).
    private static let lateEnd = """
        import UIKit

        final class Uploader {
            func upload() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                    DispatchQueue.main.async { UIApplication.shared.endBackgroundTask(task) }
                }
                send { UIApplication.shared.endBackgroundTask(task) }
            }
        }

        """

    /// An identifier kept in a property (BT005): whether a second begin can come while the first is live depends on
    /// the app's life cycle, so the finding is suspected. The handler ends through a helper in another file.
    private static let storedIdentifier = """
        import UIKit

        final class Sync {
            var task: UIBackgroundTaskIdentifier = .invalid

            func start() {
                task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                    self.finish()
                }
                work { self.finish() }
            }
        }

        """

    private static let helper = """
        import UIKit

        extension Sync {
            func finish() {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }

        """

    private static func configuration(_ level: AuditLevel = .proven) -> AuditConfiguration {
        var configuration = AuditConfiguration()
        configuration.engine = .codeModel
        configuration.level = level
        return configuration
    }

    private static func audit(_ files: [String: String], level: AuditLevel = .proven) async throws -> AuditReport {
        let folder = try TemporaryFolder()
        for (name, text) in files { try folder.write(name, text) }
        return try await Auditor(configuration: configuration(level)).audit(paths: [folder.path])
    }

    private static func rules(_ report: AuditReport) -> [String] {
        report.findings.map { "\(($0.path as NSString).lastPathComponent):\($0.location.line) \($0.ruleID)" }
    }

    @Test("A proven finding names every line of its chain: the begin, the late end, the second end")
    func provenFindingNamesTheLinesOfItsChain() async throws {
        let report = try await Self.audit(["Uploader.swift": Self.lateEnd])
        #expect(Self.rules(report) == ["Uploader.swift:6 BT001", "Uploader.swift:6 BT004", "Uploader.swift:9 BT007"])
        let late = try #require(report.findings.first { $0.ruleID == "BT004" })
        #expect(late.certainty == .proven)
        #expect(late.function == "upload")
        #expect(late.message.contains("line 6: begins a background task"))
        #expect(late.message.contains("line 7: ends it only inside `async`"))
        let double = try #require(report.findings.first { $0.ruleID == "BT007" })
        #expect(double.message.contains("line 7: the handler ends `task` and does not reset it"))
        #expect(double.message.contains("line 9: this ends `task` again"))
    }

    @Test("A suspected finding is left out at the default level and counted in the summary")
    func suspectedFindingIsLeftOutByDefault() async throws {
        let report = try await Self.audit(["Sync.swift": Self.storedIdentifier, "Sync+Finish.swift": Self.helper])
        #expect(Self.rules(report) == ["Sync.swift:7 BT001"])
        // The code model's suspected chains: BT005 (a second begin only if the app begins twice), BT006 and BT007
        // (`start` and the work's end run on threads the project does not show). The token rules' patterns (BT008:
        // `work` may never call back) are looked for only at the suspected level, so they are not counted here.
        #expect(report.suspectedCount == 3)
        #expect(report.summary.hasSuffix("3 suspected not shown (--level suspected)."))
        #expect(report.json().contains("\"suspectedNotShown\" : 3"))
    }

    @Test("The callers of a function that begins a task are read, though their file names no system call")
    func callersOfABeginningFunctionAreRead() async throws {
        // The caller's file names no background-task API, only `start()`: it is read because `start` begins a task,
        // and it shows the begin runs on the main queue, so the off-main begin of BT006 is no longer suspected.
        let caller = """
            import Foundation

            final class Scheduler {
                let sync = Sync()

                func schedule() {
                    DispatchQueue.main.async { self.sync.start() }
                }
            }

            """
        let alone = try await Self.audit(
            ["Sync.swift": Self.storedIdentifier, "Sync+Finish.swift": Self.helper], level: .suspected)
        #expect(Self.rules(alone).contains("Sync.swift:7 BT006"))
        let withCaller = try await Self.audit(
            ["Sync.swift": Self.storedIdentifier, "Sync+Finish.swift": Self.helper, "Scheduler.swift": caller],
            level: .suspected)
        #expect(!Self.rules(withCaller).contains("Sync.swift:7 BT006"))
        #expect(Self.rules(withCaller).contains("Sync.swift:7 BT005"))
    }

    @Test("At the suspected level the finding is reported, marked suspected in its message, JSON and SARIF")
    func suspectedLevelReportsAndMarksTheFinding() async throws {
        let report = try await Self.audit(
            ["Sync.swift": Self.storedIdentifier, "Sync+Finish.swift": Self.helper], level: .suspected)
        #expect(
            Self.rules(report) == [
                "Sync.swift:7 BT001", "Sync.swift:7 BT005", "Sync.swift:7 BT006", "Sync.swift:7 BT007",
                "Sync.swift:7 BT008",
            ])
        // A token rule's finding the code model did not establish is a pattern, suspected and said so.
        let pattern = try #require(report.findings.first { $0.ruleID == "BT008" })
        #expect(pattern.certainty == .suspected)
        #expect(
            pattern.message.hasPrefix("Suspected: the rule's pattern, with no chain the code model could establish."))
        let stored = try #require(report.findings.first { $0.ruleID == "BT005" })
        #expect(stored.certainty == .suspected)
        #expect(stored.message.hasPrefix("Suspected: "))
        #expect(stored.message.contains("(not shown by the code the audit read)"))
        #expect(report.suspectedCount == 0)
        #expect(report.json().contains("\"certainty\" : \"suspected\""))
        let sarif = report.sarif()
        #expect(sarif.contains("\"certainty\" : \"suspected\""))
        #expect(sarif.contains("\"level\" : \"note\""))
    }

    @Test("The handler's end through a helper in another file is followed: no BT004")
    func endThroughHelperInAnotherFileIsFollowed() async throws {
        let report = try await Self.audit(
            ["Sync.swift": Self.storedIdentifier, "Sync+Finish.swift": Self.helper], level: .suspected)
        #expect(!report.findings.contains { $0.ruleID == "BT004" || $0.ruleID == "BT003" })
    }

    @Test("A helper declared in a file that never names the APIs is read, and the end it reaches is followed")
    func helperInAFileWithoutTheAPIsIsRead() async throws {
        let begin = """
            import UIKit

            final class Export {
                var task = UIBackgroundTaskIdentifier.invalid
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Export") { self.cleanUp() }
                }
            }

            """
        let cleanUp = """
            extension Export {
                func cleanUp() {
                    Files.removeTemporary()
                    finish()
                }
            }

            """
        let finish = """
            import UIKit

            extension Export {
                func finish() {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }

            """
        let report = try await Self.audit(
            ["Export.swift": begin, "Export+CleanUp.swift": cleanUp, "Export+Finish.swift": finish], level: .suspected)
        #expect(!report.findings.contains { $0.ruleID == "BT004" })
        // Without the file, `cleanUp` is nobody's declaration in the project (a framework's method, for all the audit
        // can tell), which cannot end the task: the missing end is proven.
        let withoutHelper = try await Self.audit(
            ["Export.swift": begin, "Export+Finish.swift": finish], level: .suspected)
        #expect(withoutHelper.findings.contains { $0.ruleID == "BT004" && $0.certainty == .proven })
    }

    @Test("The declaration a receiver's type comes from is read, however far from the APIs its file is")
    func receiversTypeDeclarationIsRead() async throws {
        let begin = """
            import UIKit

            func incomingCall() {
                let task = UIApplication.shared.beginBackgroundTask(withName: "Call") {}
                Services.calls.show { UIApplication.shared.endBackgroundTask(task) }
            }

            """
        let services = """
            enum Services {
                static let calls: CallPresenter = CallPresenter()
            }

            """
        let presenter = """
            final class CallPresenter {
                func show(_ completion: @escaping () -> Void) {
                    guard isReady else { return }
                    completion()
                }
            }
            final class OtherPresenter {
                func show(_ completion: @escaping () -> Void) { completion() }
            }

            """
        let files = ["Call.swift": begin, "Services.swift": services, "CallPresenter.swift": presenter]
        let report = try await Self.audit(files, level: .suspected)
        // `Services.calls` is a `CallPresenter`: the early return that never calls back is shown, so proven.
        #expect(report.findings.contains { $0.ruleID == "BT008" && $0.certainty == .proven })
        var withoutServices = files
        withoutServices["Services.swift"] = nil
        let byName = try await Self.audit(withoutServices, level: .suspected)
        #expect(byName.findings.contains { $0.ruleID == "BT008" && $0.certainty == .suspected })
    }

    @Test("A bgtask:ignore comment silences a code-model finding and is counted")
    func suppressionSilencesModelFinding() async throws {
        let source = Self.lateEnd.replacingOccurrences(
            of: "task = UIApplication.shared.beginBackgroundTask(withName: \"Upload\") {",
            with: "task = UIApplication.shared.beginBackgroundTask(withName: \"Upload\") {  // bgtask:ignore BT004")
        let report = try await Self.audit(["Uploader.swift": source])
        #expect(Self.rules(report) == ["Uploader.swift:6 BT001", "Uploader.swift:9 BT007"])
        #expect(report.suppressedCount == 1)
    }

    @Test("Test code's findings are counted, not shown, unless asked for; with --include-tests they are marked")
    func testCodeIsCountedUnlessAskedFor() async throws {
        let report = try await Self.audit(["UploaderTests/Uploader.swift": Self.lateEnd])
        #expect(report.findings.isEmpty)
        #expect(report.testCodeCount == 3)  // BT001, BT004, BT007: what --include-tests shows
        var configuration = Self.configuration()
        configuration.includesTestCode = true
        let folder = try TemporaryFolder()
        try folder.write("UploaderTests/Uploader.swift", Self.lateEnd)
        let included = try await Auditor(configuration: configuration).audit(paths: [folder.path])
        #expect(Self.rules(included) == ["Uploader.swift:6 BT001", "Uploader.swift:6 BT004", "Uploader.swift:9 BT007"])
        #expect(included.findings.allSatisfy { $0.message.hasPrefix("In test code: ") })
    }

    @Test("An in-memory audit with the code model reports the same defects as a folder's")
    func inMemoryAuditMatchesFolderAudit() async throws {
        let findings = Auditor(configuration: Self.configuration()).audit(source: Self.lateEnd, path: "Uploader.swift")
        #expect(findings.map { "\($0.location.line) \($0.ruleID)" } == ["6 BT001", "6 BT004", "9 BT007"])
    }

    @Test("The code model decides the defects by default, at the proven level; the token rules are a choice")
    func codeModelIsTheDefault() {
        #expect(AuditConfiguration().engine == .codeModel)
        #expect(AuditConfiguration().level == .proven)
    }
}
