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
}
