import BackgroundTaskAudit
import Testing

/// A handler that ends the task through `[weak self]` / `__weak` always does so when `self` lives as long as
/// the process (the app delegate, a singleton): BT004 is not reported there, and still is for other
/// owners (issue 23).
struct ProcessLifetimeOwnerTests {
    private func bt004(_ source: String, path: String) -> Bool {
        Auditor.tokenRules().audit(source: source, path: path).contains { $0.ruleID == "BT004" }
    }

    private static func swiftOwner(_ declaration: String, extra: String = "") -> String {
        """
        \(declaration) {
            \(extra)
            var task = UIBackgroundTaskIdentifier.invalid
            func refresh() {
                task = UIApplication.shared.beginBackgroundTask(withName: "Refresh") { [weak self] in
                    guard let self else { return }
                    UIApplication.shared.endBackgroundTask(self.task)
                    self.task = .invalid
                }
                fetch { [weak self] in
                    guard let self else { return }
                    UIApplication.shared.endBackgroundTask(self.task)
                    self.task = .invalid
                }
            }
        }
        """
    }

    @Test func anOrdinaryOwnerUnderWeakSelfIsReported() {
        #expect(bt004(Self.swiftOwner("final class Refresher"), path: "App/Refresher.swift"))
    }

    @Test(arguments: [
        "final class AppDelegate: UIResponder, UIApplicationDelegate",
        "final class MyAppDelegate: NSObject",
        "class Delegate: NSObject, UIApplicationDelegate",
        "@main final class Entry: UIResponder, UIApplicationDelegate",
    ])
    func theAppDelegateUnderWeakSelfIsNotReported(declaration: String) {
        #expect(!bt004(Self.swiftOwner(declaration), path: "App/AppDelegate.swift"), "\(declaration)")
    }

    @Test(arguments: [
        "static let shared = PlaybackManager()", "static let shared: PlaybackManager = PlaybackManager()",
    ])
    func aSingletonUnderWeakSelfIsNotReported(property: String) {
        let source = Self.swiftOwner("final class PlaybackManager", extra: property)
        #expect(!bt004(source, path: "App/PlaybackManager.swift"), "\(property)")
    }

    @Test func aSharedPropertyOfAnotherTypeDoesNotMakeASingleton() {
        let source = Self.swiftOwner("final class Player", extra: "static let shared = Engine()")
        #expect(bt004(source, path: "App/Player.swift"))
    }

    private static func objectiveC(_ implementation: String, extra: String = "") -> String {
        """
        @implementation \(implementation)
        \(extra)
        - (void)refresh {
            __weak typeof(self) weakSelf = self;
            self.task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Refresh" expirationHandler:^{
                __strong typeof(weakSelf) strongSelf = weakSelf;
                if (!strongSelf) { return; }
                [[UIApplication sharedApplication] endBackgroundTask:strongSelf.task];
                strongSelf.task = UIBackgroundTaskInvalid;
            }];
        }
        @end
        """
    }

    @Test func anOrdinaryObjectiveCOwnerIsReportedAndTheAppDelegateAndASingletonAreNot() {
        #expect(bt004(Self.objectiveC("Refresher"), path: "App/Refresher.m"))
        #expect(!bt004(Self.objectiveC("AppDelegate"), path: "App/AppDelegate.m"))
        let singleton = """
            + (instancetype)sharedManager {
                static Manager *shared; static dispatch_once_t once;
                dispatch_once(&once, ^{ shared = [[Manager alloc] init]; });
                return shared;
            }
            """
        #expect(!bt004(Self.objectiveC("Manager", extra: singleton), path: "App/Manager.m"))
    }

    /// BT008: a completion that returns when `self` is nil never does in the app delegate or a singleton.
    @Test func aCompletionThatReturnsWhenSelfIsGoneIsNotReportedForTheAppDelegate() {
        func bt008(_ declaration: String) -> Bool {
            let source = """
                \(declaration) {
                    var syncTask = UIBackgroundTaskIdentifier.invalid
                    func sync() {
                        let completeProcessing = { [weak self] in
                            guard let self else { return }
                            UIApplication.shared.endBackgroundTask(self.syncTask)
                            self.syncTask = .invalid
                        }
                        syncTask = UIApplication.shared.beginBackgroundTask(withName: "Sync") { completeProcessing() }
                        account.refresh(completion: completeProcessing)
                    }
                }
                """
            return Auditor.tokenRules().audit(source: source, path: "App/Source.swift").contains {
                $0.ruleID == "BT008"
            }
        }
        #expect(bt008("final class Syncer"))
        #expect(!bt008("final class AppDelegate: UIResponder, UIApplicationDelegate"))
    }
}
