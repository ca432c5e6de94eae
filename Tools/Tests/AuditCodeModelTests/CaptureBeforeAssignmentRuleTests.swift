import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT006 on the code model: proven where the handler copies the identifier before it is stored, or where the begin
/// is shown off the main thread; a begin on the main thread, or a `__block` local, is fine.
struct CaptureBeforeAssignmentRuleTests {
    private func findings(_ path: String, _ source: String) -> [String] {
        let file = ModelFixture.read(path, source)
        return ModelFixture.summary(
            CaptureBeforeAssignmentRule(index: ProjectIndex(files: [file])).findings(in: file), withPath: false)
    }

    @Test func aHandlerThatReadsTheIdentifierThroughAMethodOfItsTypeIsFollowed() {
        #expect(
            findings(
                "Analytics.m",
                """
                @implementation Analytics
                - (void)publishOnBackground {
                    dispatch_async(dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0), ^{
                        __weak typeof(self) weakSelf = self;
                        weakSelf.task = [app beginBackgroundTaskWithName:@"Publish" expirationHandler:^{
                            [weakSelf cleanUp];
                        }];
                        [self publish];
                    });
                }
                - (void)cleanUp {
                    [app endBackgroundTask:self.task];
                    self.task = UIBackgroundTaskInvalid;
                }
                @end
                """
            ) == ["BT006 proven 5"])
    }

    @Test func aCaptureListOrABlockCopyTakesTheValueBeforeTheBeginReturns() {
        #expect(
            findings(
                "A.swift",
                """
                func a() {
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "A") { [task] in
                        UIApplication.shared.endBackgroundTask(task)
                    }
                }
                """) == ["BT006 proven 3", "BT004 proven 3"])
        #expect(
            findings(
                "B.m",
                """
                @implementation B
                - (void)copied {
                    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"B" expirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                }
                - (void)shared {
                    __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"B" expirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                }
                @end
                """) == ["BT006 proven 3", "BT004 proven 3", "BT006 suspected 8"])
        // (The `__block` local is shared, not copied: only a begin off the main thread, not shown here, would let the
        // handler read it before it is stored.)
    }

    @Test func aBeginShownOffTheMainThreadIsProvenAndOneOnMainIsFine() {
        #expect(
            findings(
                "Sync.swift",
                """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    @MainActor func onMain() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Main") {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                    func offMain() {
                        DispatchQueue.global(qos: .utility).async {
                            self.task = UIApplication.shared.beginBackgroundTask(withName: "Off") {
                                UIApplication.shared.endBackgroundTask(self.task)
                            }
                        }
                    }
                }
                final class Store {
                    var task = UIBackgroundTaskIdentifier.invalid
                    nonisolated func save() async {
                        await prepare()
                        task = UIApplication.shared.beginBackgroundTask(withName: "Save") {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                }
                actor Journal {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func write() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Write") {
                            Task { await self.finish(self.task) }
                        }
                    }
                }
                """) == ["BT006 proven 10", "BT006 proven 20"])
    }

    @Test func aBeginOnAThreadTheProjectDoesNotShowIsSuspectedAndOneEveryCallerRunsOnMainIsNot() {
        #expect(
            findings(
                "Upload.swift",
                """
                final class Upload {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                    func startOnQueue() {
                        queue.async { self.start() }
                    }
                }
                final class Sender {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func send() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Send") {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                    func applicationDidEnterBackground(_ application: UIApplication) {
                        send()
                    }
                }
                """) == ["BT006 suspected 4"])
    }

    @Test func aHandlerThatReadsTheIdentifierThroughABindingReadsIt() {
        #expect(
            findings(
                "Media.swift",
                """
                final class Media {
                    func sleep() {
                        sessions.forEach { session in
                            var taskID: UIBackgroundTaskIdentifier?
                            taskID = UIApplication.shared.beginBackgroundTask {
                                if let id = taskID {
                                    UIApplication.shared.endBackgroundTask(id)
                                    taskID = .invalid
                                }
                            }
                        }
                    }
                }
                """) == ["BT006 suspected 5"])
    }

    @Test func anIdentifierStoredAfterTheBeginWhereTheHandlerLooksItUpIsSuspectedOffTheMainThread() {
        let source = """
            final class Tasks {
                var tasks: [Int: Int] = [:]
                func begin(_ key: Int) {
                    DispatchQueue.global().async {
                        let identifier = UIApplication.shared.beginBackgroundTask(withName: "Send") {
                            self.end(key)
                        }
                        self.tasks[key] = identifier.rawValue
                    }
                }
                func end(_ key: Int) {
                    if let raw = tasks.removeValue(forKey: key) {
                        UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: raw))
                    }
                }
            }
            """
        #expect(findings("Tasks.swift", source) == ["BT006 suspected 5"])
        // Begun on the main queue, the handler cannot run before the store.
        let onMain = source.replacingOccurrences(of: "DispatchQueue.global().async", with: "DispatchQueue.main.async")
        #expect(findings("Tasks.swift", onMain) == [])
    }

    @Test func aBeginOnAThreadOfItsOwnWhoseHandlerReadsThroughALocalClosureIsProven() {
        func cleanup(start: String) -> String {
            """
            final class Updater {
                func cleanupObsoleteVersions() {
                    \(start) {
                        let lock = NSLock()
                        var task = UIBackgroundTaskIdentifier.invalid
                        let endTask = {
                            lock.lock()
                            defer { lock.unlock() }
                            if task != .invalid {
                                UIApplication.shared.endBackgroundTask(task)
                                task = .invalid
                            }
                        }
                        task = UIApplication.shared.beginBackgroundTask(withName: "Cleanup") { endTask() }
                        self.removeOldBundles()
                        endTask()
                    }
                }
            }
            """
        }
        #expect(findings("Updater.swift", cleanup(start: "let thread = Thread")) == ["BT006 proven 14"])
        #expect(findings("Updater.swift", cleanup(start: "DispatchQueue.main.async")).isEmpty)
    }

    @Test func anObjectiveCLocalAssignedAfterItsDeclarationIsCopiedByTheBlockAndTheHandlerEndsNothing() {
        func begin(_ qualifier: String) -> String {
            """
            @implementation Module
            - (void)begin {
              \(qualifier)UIBackgroundTaskIdentifier identifier = UIBackgroundTaskInvalid;
              identifier = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:^{
                [[UIApplication sharedApplication] endBackgroundTask:identifier];
              }];
              [self.delegate didBegin:identifier];
            }
            @end
            """
        }
        // (The thread of `begin` is not shown: BT006 `suspected` for the `__block` local, which the handler shares.)
        #expect(findings("Module.m", begin("")) == ["BT006 proven 4", "BT004 proven 4"])
        #expect(findings("Module.m", begin("__block ")) == ["BT006 suspected 4"])
    }

    @Test func aHandlerThatResetsTheIdentifierBeforeEndingItEndsTheInvalidValue() {
        func invoke(_ handler: String) -> String {
            """
            final class RestClient {
                func invoke() {
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "Request") {
                        \(handler)
                    }
                    session.send { UIApplication.shared.endBackgroundTask(task) }
                }
            }
            """
        }
        let resetFirst = "task = .invalid\n            UIApplication.shared.endBackgroundTask(task)"
        let endFirst = "UIApplication.shared.endBackgroundTask(task)\n            task = .invalid"
        let bt004 = { (source: String) in self.findings("RestClient.swift", source).filter { $0.hasPrefix("BT004") } }
        #expect(bt004(invoke(resetFirst)) == ["BT004 proven 4"])
        #expect(bt004(invoke(endFirst)).isEmpty)
        // Ending the invalid identifier itself ends nothing either.
        #expect(
            bt004(invoke("UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier.invalid)")) == [
                "BT004 proven 4"
            ])
    }

    @Test func aBlockLocalDeclaredWithTheBeginOffTheMainThreadIsReadUnsetByTheHandler() {
        func timer(queue: String) -> String {
            """
            @implementation Timer
            - (void)start {
                dispatch_async(\(queue), ^{
                    __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Timer" expirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                    [self fire];
                    [app endBackgroundTask:task];
                });
            }
            @end
            """
        }
        #expect(findings("Timer.m", timer(queue: "dispatch_get_global_queue(0, 0)")) == ["BT006 proven 4"])
        #expect(findings("Timer.m", timer(queue: "dispatch_get_main_queue()")).isEmpty)
    }
}
