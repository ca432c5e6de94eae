import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT005 on the code model: suspected unless the code shows the second live begin; a check of the property or an end
/// of it before the begin rules the overwrite out.
struct StoredIdentifierRuleTests {
    private func findings(_ path: String, _ source: String) -> [String] {
        let file = ModelFixture.read(path, source)
        return ModelFixture.summary(
            StoredIdentifierRule(index: ProjectIndex(files: [file])).findings(in: file), withPath: false)
    }

    @Test func anUncheckedOverwriteIsSuspectedAndABeginInALoopIsProven() {
        #expect(
            findings(
                "Sync.swift",
                """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {}
                    }
                    func startAll(_ jobs: [Job]) {
                        for job in jobs {
                            self.task = UIApplication.shared.beginBackgroundTask(withName: job.name) {}
                        }
                    }
                }
                """) == ["BT005 suspected 4", "BT005 proven 8"])
    }

    @Test func aCheckOrAnEndBeforeTheBeginRulesTheOverwriteOut() {
        #expect(
            findings(
                "Sync.swift",
                """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    @MainActor func start() {
                        guard task == .invalid else { return }
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {}
                    }
                    func restart() {
                        UIApplication.shared.endBackgroundTask(task)
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {}
                    }
                    func local() {
                        let id = UIApplication.shared.beginBackgroundTask(withName: "Local") {}
                    }
                }
                """) == [])
        #expect(
            findings(
                "Sync.m",
                """
                @implementation Sync
                - (void)applicationWillResignActive:(UIApplication *)application {
                    if (self.task == UIBackgroundTaskInvalid) {
                        self.task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{}];
                    }
                }
                @end
                """) == [])
    }

    @Test func aCheckOffTheMainThreadWithNoLockIsASuspectedRace() {
        #expect(
            findings(
                "Events.swift",
                """
                final class Events {
                    var task: UIBackgroundTaskIdentifier?
                    func process() {
                        guard task == nil else { return }
                        task = UIApplication.shared.beginBackgroundTask(withName: "Events") {}
                    }
                    func processLocked() {
                        lock.lock()
                        defer { lock.unlock() }
                        guard task == nil else { return }
                        task = UIApplication.shared.beginBackgroundTask(withName: "Events") {}
                    }
                    func launch() async {
                        process()
                        processLocked()
                    }
                }
                """) == ["BT005 suspected 5"])
    }

    @Test func anOverwriteMakesTheFirstTasksEndEndTheNewerTaskAsLikelyAsTheOverwriteItself() {
        let source = """
            final class Sync {
                var task = UIBackgroundTaskIdentifier.invalid
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") { self.finish() }
                }
                func finish() {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }
            """
        #expect(findings("Sync.swift", source) == ["BT005 suspected 4", "BT007 suspected 4"])
        // An end that does not read the property (it keeps its own copy) is not the one an overwrite redirects.
        let copied = source.replacingOccurrences(of: "endBackgroundTask(task)", with: "endBackgroundTask(copy)")
        #expect(findings("Sync.swift", copied) == ["BT005 suspected 4"])
    }
}
