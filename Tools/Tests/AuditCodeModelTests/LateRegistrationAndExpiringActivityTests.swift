import AuditCodeModel
import SwiftAuditFrontEnd
import Testing

/// BT013 and BT009 on the code model.
struct LateRegistrationAndExpiringActivityTests {
    private func read(_ files: [String: String]) -> [CodeFile] {
        files.sorted { $0.key < $1.key }.map { SwiftFrontEnd.read($1, path: $0) }
    }

    @Test func aRegistrationInAViewControllerOrOnlyCalledFromOneIsLateAndOneAtLaunchIsNot() {
        let files = read([
            "Home.swift": """
            final class HomeViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "a", using: nil) { $0.setTaskCompleted(success: true) }
                    Scheduler.registerRefresh()
                }
            }
            """,
            "Scheduler.swift": """
            enum Scheduler {
                static func registerRefresh() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "b", using: nil) { $0.setTaskCompleted(success: true) }
                }
                static func registerSync() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "c", using: nil) { $0.setTaskCompleted(success: true) }
                }
            }
            """,
            "AppDelegate.swift": """
            final class AppDelegate: NSObject, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    Scheduler.registerSync()
                    return true
                }
            }
            """,
        ])
        let rule = LateRegistrationRule(index: ProjectIndex(files: files))
        let found = files.flatMap(rule.findings(in:))
        #expect(found.map { "\($0.location.path):\($0.location.line)" } == ["Home.swift:4", "Scheduler.swift:3"])
        #expect(found.allSatisfy { $0.certainty == .proven })
        #expect(found.last?.chain.last?.text.contains("viewDidLoad") == true)
    }

    @Test func anExpiringActivityThatDispatchesItsWorkAndReturnsIsProvenAndOneThatWaitsIsNot() {
        let files = read([
            "Extension.swift": """
            func save() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                    guard !expired else { return }
                    DispatchQueue.global().async { store.save() }
                }
            }
            func saveAndWait() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                    guard !expired else { return }
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async { store.save(); done.signal() }
                    done.wait()
                }
            }
            func saveWithTimeout() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async { store.save(); done.signal() }
                    _ = done.wait(timeout: .now() + 5)
                }
            }
            """
        ])
        let found = files.flatMap(ExpiringActivityRule().findings(in:))
        #expect(found.map { "\($0.ruleID) \($0.location.line)" } == ["BT009 2", "BT009 16"])
        #expect(found.last?.chain.last?.text.contains("timeout") == true)
    }

    @Test func cancellingOnExpiryOrPostingAResultAfterTheWorkIsFineAndATimedWaitAloneIsNot() {
        let files = read([
            "Activity.swift": """
            func upload() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload") { expired in
                    if expired {
                        Task { await Uploads.cancel() }
                        return
                    }
                    Uploads.runSynchronously()
                }
            }
            func render() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Render") { expired in
                    guard !expired else { return Thumbnails.cancelRendering() }
                    let result = Thumbnails.renderAll()
                    DispatchQueue.main.async { show(result) }
                }
            }
            func waitForUpload(done: DispatchSemaphore) {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload") { expired in
                    guard !expired else { return }
                    _ = done.wait(timeout: .now() + 30)
                }
            }
            """
        ])
        let found = files.flatMap(ExpiringActivityRule().findings(in:))
        #expect(found.map { "\($0.ruleID) \($0.location.line)" } == ["BT009 18"])
    }

    @Test func aContinuedProcessingTaskRegisteredWhenTheUserStartsItIsNotLate() {
        let files = read([
            "Export.swift": """
            final class ExportViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let identifier = "com.example.export.\\(UUID().uuidString)"
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                        task.expirationHandler = { exporter.cancel() }
                        exporter.run { task.setTaskCompleted(success: true) }
                    }
                    try? BGTaskScheduler.shared.submit(
                        BGContinuedProcessingTaskRequest(identifier: identifier, title: "Export", subtitle: ""))
                }
            }
            """
        ])
        #expect(files.flatMap(LateRegistrationRule(index: ProjectIndex(files: files)).findings(in:)).isEmpty)
    }

    @Test func workDispatchedWhenNotExpiredInsideAnIfConfigIsFound() {
        let files = read([
            "Watch.swift": """
            func sleep() {
                #if os(iOS)
                UIApplication.shared.endBackgroundTask(task)
                #elseif os(watchOS)
                ProcessInfo().performExpiringActivity(withReason: "End session") { willBeSuspended in
                    if !willBeSuspended {
                        queue.asyncAfter(deadline: .now() + 5) { self.endSession() }
                    }
                }
                #endif
            }
            """
        ])
        #expect(
            files.flatMap(ExpiringActivityRule().findings(in:)).map { "\($0.ruleID) \($0.location.line)" } == [
                "BT009 5"
            ])
    }

    @Test func aBlockThatIgnoresItsExpiryOrCallsAHelperThatDispatchesIsSuspected() {
        let source = """
            final class Sender {
                func flush() {
                    ProcessInfo.processInfo.performExpiringActivity(withReason: "Flush") { expired in
                        guard !expired else { return }
                        store.writeAll()
                    }
                }
                func report() {
                    ProcessInfo.processInfo.performExpiringActivity(withReason: "Report") { expired in
                        if expired { return }
                        self.send()
                    }
                }
                func send() {
                    DispatchQueue.global().async { post() }
                }
            }
            """
        let files = read(["Sender.swift": source])
        let found = files.flatMap(ExpiringActivityRule(index: ProjectIndex(files: files)).findings(in:))
        #expect(ModelFixture.summary(found) == ["BT009 suspected Sender.swift:3", "BT009 suspected Sender.swift:9"])
        #expect(found.last?.chain.last?.text.contains("calls `send`, which hands work to `async`") == true)
        // Told expired, the first block stops its work; the second waits for the helper's.
        let stopping = source.replacingOccurrences(
            of: "guard !expired else { return }", with: "guard !expired else { return store.cancelWriting() }"
        ).replacingOccurrences(of: "if expired { return }", with: "if expired { return Network.cancelPosts() }")
            .replacingOccurrences(of: "DispatchQueue.global().async { post() }", with: "post()")
        let clean = read(["Sender.swift": stopping])
        #expect(clean.flatMap(ExpiringActivityRule(index: ProjectIndex(files: clean)).findings(in:)).isEmpty)
    }
}
