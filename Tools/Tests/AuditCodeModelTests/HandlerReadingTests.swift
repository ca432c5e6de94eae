import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// What an expiration handler's body does, read closer: blocks it calls, a weak capture it bails out on, another
/// object's method of a familiar name; and two neighbours of the handler rules (a returned identifier, an expiring
/// activity's URL session task). Each pair is written for this project, after the fixtures the code model missed.
struct HandlerReadingTests {
    /// The BT003 and BT004 findings for every begin of `files`.
    private func handlerFindings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        let index = ProjectIndex(files: read)
        let rules = HandlerRules(index: index)
        return ModelFixture.summary(read.flatMap { BeginSite.all(in: $0, index: index) }.flatMap(rules.findings(for:)))
    }

    @Test func aLocalBlockOrAPropertyBlockThatEndsTheTaskEndsItWhenTheHandlerCallsIt() {
        let objectiveC = """
            @implementation Uploader
            - (void)upload {
                __block UIBackgroundTaskIdentifier uploadID = UIBackgroundTaskInvalid;
                dispatch_block_t finishUpload = ^{
                    [[UIApplication sharedApplication] endBackgroundTask:uploadID];
                    uploadID = UIBackgroundTaskInvalid;
                };
                uploadID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                    finishUpload();
                }];
            }
            - (void)connect {
                __block UIBackgroundTaskIdentifier connection = UIBackgroundTaskInvalid;
                self.cleanup = ^{
                    [[UIApplication sharedApplication] endBackgroundTask:connection];
                };
                connection = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Connect" expirationHandler:^{
                    self.cleanup();
                }];
            }
            @end
            """
        let swift = """
            func save() {
                var task = UIBackgroundTaskIdentifier.invalid
                let finish = {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                task = UIApplication.shared.beginBackgroundTask(withName: "Save") { finish() }
            }
            """
        #expect(handlerFindings(["Uploader.m": objectiveC, "Save.swift": swift]) == [])
        // The same handlers calling blocks that end nothing do not end the task.
        let neverEnding = objectiveC.replacingOccurrences(
            of: "[[UIApplication sharedApplication] endBackgroundTask:uploadID];", with: "NSLog(@\"done\");")
        #expect(handlerFindings(["Uploader.m": neverEnding]) == ["BT004 proven Uploader.m:8"])
    }

    @Test func aFunctionDeclaredBesideTheHandlerEndsTheTaskWhenTheHandlerCallsItAndOnlyThen() {
        // A function nested in the closure around the begin, declared after the handler that calls it.
        let ends = """
            func received(_ application: UIApplication) {
                DispatchQueue.main.async {
                    var task: UIBackgroundTaskIdentifier?
                    task = application.beginBackgroundTask(withName: "Push") {
                        finish()
                    }
                    func finish() {
                        if let task, task != .invalid {
                            application.endBackgroundTask(task)
                        }
                    }
                    self.process { finish() }
                }
            }
            """
        #expect(handlerFindings(["Push.swift": ends]).isEmpty)
        let logsOnly = ends.replacingOccurrences(of: "application.endBackgroundTask(task)", with: "print(task)")
        #expect(handlerFindings(["Push.swift": logsOnly]) == ["BT004 proven Push.swift:4"])
    }

    @Test func aHelperThatEndsTheTaskItLooksUpInsideAQueuesSyncBlockEndsItAndAnAsyncBlockDoesNot() {
        // The `if let` that finds no task is the path with nothing to end, inside the `sync` block as outside it.
        let sync = """
            final class Service {
                private var tasks: [String: UIBackgroundTaskIdentifier] = [:]
                private let queue = DispatchQueue(label: "tasks")

                func startTask() -> String {
                    let id = UUID().uuidString
                    let identifier = UIApplication.shared.beginBackgroundTask(withName: id) {
                        self.endTask(with: id)
                    }
                    queue.async { self.tasks[id] = identifier }
                    return id
                }

                func endTask(with id: String) {
                    queue.sync {
                        if let task = self.tasks[id] {
                            UIApplication.shared.endBackgroundTask(task)
                            self.tasks[id] = nil
                        }
                    }
                }
            }
            """
        #expect(handlerFindings(["Service.swift": sync]).isEmpty)
        let async = sync.replacingOccurrences(of: "queue.sync {", with: "queue.async {")
        #expect(handlerFindings(["Service.swift": async]) == ["BT004 proven Service.swift:7"])
    }

    @Test func aHelperThatEndsTheRawValueItKeptInADictionaryEndsTheTask() {
        let source = """
            final class Tasks {
                var tasks: [Int: Int] = [:]
                func begin(_ key: Int) -> Int {
                    let identifier = UIApplication.shared.beginBackgroundTask(withName: "Send") {
                        self.end(key)
                    }
                    tasks[key] = identifier.rawValue
                    return key
                }
                func end(_ key: Int) {
                    if let taskId = tasks[key] {
                        UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: taskId))
                        tasks.removeValue(forKey: key)
                    }
                }
            }
            """
        #expect(handlerFindings(["Tasks.swift": source]).isEmpty)
        let logsOnly = source.replacingOccurrences(
            of: "UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: taskId))",
            with: "print(taskId)")
        #expect(handlerFindings(["Tasks.swift": logsOnly]) == ["BT004 proven Tasks.swift:4"])
    }

    @Test func aHelperThatEndsOnlyOnSomeOfItsPathsLeavesTheHandlerSuspectedNotProven() {
        // Which path the helper takes depends on what its list holds when the handler runs.
        let source = """
            final class Service {
                struct Entry { let id: String; let task: UIBackgroundTaskIdentifier }
                var entries: [Entry] = []
                func start() -> String {
                    let id = UUID().uuidString
                    let task = UIApplication.shared.beginBackgroundTask(withName: id) {
                        self.finish(id)
                    }
                    entries.append(Entry(id: id, task: task))
                    return id
                }
                func finish(_ id: String) {
                    if let index = entries.firstIndex(where: { $0.id == id }) {
                        UIApplication.shared.endBackgroundTask(entries[index].task)
                        entries.remove(at: index)
                    }
                }
            }
            """
        #expect(handlerFindings(["Service.swift": source]) == ["BT004 suspected Service.swift:6"])
    }

    @Test func aFlagTestedAndSetBesideTheEndMarksThePathWhereTheTaskWasEndedAlready() {
        let source = """
            func save(_ onExpiration: @escaping () -> Void) {
                let lock = NSLock()
                var ended = false
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Save") {
                    onExpiration()
                    lock.lock()
                    if !ended {
                        ended = true
                        UIApplication.shared.endBackgroundTask(task)
                        lock.unlock()
                    } else {
                        lock.unlock()
                    }
                }
            }
            """
        #expect(handlerFindings(["Save.swift": source]).isEmpty)
        // A flag the ending arm does not set says nothing about an earlier end.
        let otherFlag = source.replacingOccurrences(of: "ended = true", with: "print(task)")
        #expect(handlerFindings(["Save.swift": otherFlag]) == ["BT004 proven Save.swift:5"])
    }

    @Test func anObjectiveCBlockVariableTheHandlerCallsIsReadAsTheLocalBlockItIs() {
        let source = """
            @implementation Tracer
            - (void)flush {
                void (^cleanup)(BOOL, NSError *_Nullable) = ^(BOOL expired, NSError *_Nullable error) {
                    [self endFlushTask];
                };
                self.flushTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Flush"
                                                                           expirationHandler:^{
                    cleanup(YES, nil);
                }];
            }
            - (void)endFlushTask {
                if (self.flushTask != UIBackgroundTaskInvalid) {
                    [[UIApplication sharedApplication] endBackgroundTask:self.flushTask];
                    self.flushTask = UIBackgroundTaskInvalid;
                }
            }
            @end
            """
        #expect(handlerFindings(["Tracer.m": source]).isEmpty)
        let logsOnly = source.replacingOccurrences(of: "[self endFlushTask];", with: "NSLog(@\"expired\");")
        #expect(handlerFindings(["Tracer.m": logsOnly]) == ["BT004 proven Tracer.m:6"])
    }

    @Test func anObjectiveCHandlerThatReturnsWhenItsWeakSelfIsGoneMayNotEnd() {
        let source = """
            @implementation Downloader
            - (void)download {
                __weak __typeof(self) weakSelf = self;
                __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                task = [app beginBackgroundTaskWithName:@"Download" expirationHandler:^{
                    __strong __typeof(weakSelf) strongSelf = weakSelf;
                    if (!strongSelf) {
                        return;
                    }
                    [strongSelf cancelDownload];
                    [app endBackgroundTask:task];
                }];
            }
            @end
            """
        let found = handlerFindings(["Downloader.m": source])
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("BT004") == true)
        // Without the bail-out, the end always runs.
        let always = source.replacingOccurrences(of: "if (!strongSelf) {\n            return;\n        }\n", with: "")
        #expect(handlerFindings(["Downloader.m": always]) == [])
    }

    @Test func anotherObjectsMethodNamedLikeTheCallersOwnEndIsNotShownToEndTheTask() {
        let source = """
            @implementation Flusher
            - (void)flushInBackground {
                self.flushTaskID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
                    [%@ stopFlushing];
                }];
            }
            - (void)stopFlushing {
                [[UIApplication sharedApplication] endBackgroundTask:self.flushTaskID];
                self.flushTaskID = UIBackgroundTaskInvalid;
            }
            @end
            """
        let onSender = source.replacingOccurrences(of: "%@", with: "self.sender")
        #expect(handlerFindings(["Flusher.m": onSender]) == ["BT004 suspected Flusher.m:3"])
        let onSelf = source.replacingOccurrences(of: "%@", with: "self")
        #expect(handlerFindings(["Flusher.m": onSelf]) == [])
    }

    @Test func anIdentifierReturnedToTheCallerIsHandedOn() {
        let source = """
            final class ShareUploader {
                private var taskID = UIBackgroundTaskIdentifier.invalid
                func beginUpload() -> UIBackgroundTaskIdentifier {
                    taskID = UIApplication.shared.beginBackgroundTask(withName: "Share upload") {
                        UIApplication.shared.endBackgroundTask(self.taskID)
                        self.taskID = .invalid
                    }
                    return %@
                }
            }
            """
        func neverEnded(_ returned: String) -> [String] {
            let read = ModelFixture.read(["Share.swift": source.replacingOccurrences(of: "%@", with: returned)])
            return ModelFixture.summary(read.flatMap(EarlyExitRule(index: ProjectIndex(files: read)).findings(in:)))
        }
        #expect(neverEnded("taskID") == [])
        #expect(neverEnded(".invalid") == ["BT008 proven Share.swift:4"])
    }

    @Test func anExpiringActivityThatStartsAURLSessionTaskAndReturnsIsBT009() {
        let source = """
            func upload(_ request: URLRequest) {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload") { expired in
                    guard !expired else { return }
                    URLSession.shared.dataTask(with: request) { _, _, _ in
                        Log.note("uploaded")
                    }.resume()
                }
            }
            """
        let found = ModelFixture.read(["Upload.swift": source]).flatMap(ExpiringActivityRule().findings(in:))
        #expect(ModelFixture.summary(found) == ["BT009 proven Upload.swift:2"])
        #expect(found.first?.chain.last?.text.contains("hands its work to `dataTask`") == true)
    }
}
