import BackgroundTaskAudit
import Testing

/// Findings whose message or binding depends on the code's shape, beyond the fixtures' line and rule.
struct RuleMessageTests {
    private func findings(_ source: String, path: String = "App/Sample.swift") -> [Finding] {
        Auditor.tokenRules().audit(source: source, path: path)
    }

    @Test("An early return inside a completion closure names that closure, not the function")
    func earlyReturnInAClosureNamesTheClosure() throws {
        let source = """
            func start() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                upload { [weak self] in
                    guard let self else { return }
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }
            """
        let finding = try #require(findings(source).first { $0.ruleID == "BT008" })
        #expect(finding.location.line == 8)
        #expect(finding.message.hasPrefix("This `return` leaves the closure passed to `upload` in `start` between"))
    }

    @Test("An early return in the function itself names the function")
    func earlyReturnInTheFunctionNamesTheFunction() throws {
        let source = """
            func save() {
                let task = UIApplication.shared.beginBackgroundTask(withName: "Save") {}
                guard ready else { return }
                UIApplication.shared.endBackgroundTask(task)
            }
            """
        let finding = try #require(findings(source).first { $0.ruleID == "BT008" })
        #expect(finding.message.hasPrefix("This `return` leaves `save` between"))
    }

    @Test("await and try before a begin still bind the identifier", arguments: ["await", "try", "try?", "try await"])
    func effectKeywordsBeforeABeginKeepTheBinding(_ keywords: String) {
        let source = """
            final class Saver {
                var stored = UIBackgroundTaskIdentifier.invalid
                func save() async {
                    stored = \(keywords) UIApplication.shared.beginBackgroundTask(withName: "Save") {
                        UIApplication.shared.endBackgroundTask(self.stored)
                        self.stored = .invalid
                    }
                }
            }
            """
        #expect(findings(source).contains { $0.ruleID == "BT005" && $0.location.line == 4 })
    }

    @Test(
        "A stored property initialized by a begin is begun once per object: no overwrite to report",
        arguments: ["", "private ", "static "]
    )
    func storedPropertyInitializerIsOneShot(_ modifiers: String) throws {
        let source = """
            final class Keeper {
                \(modifiers)var bgTask = UIApplication.shared.beginBackgroundTask(withName: "Keep") {}
            }
            """
        let rules = findings(source).map(\.ruleID)
        #expect(rules.contains("BT003"))
        #expect(!rules.contains("BT005"))
    }

    @Test("A local declared with modifiers-free let is not a property")
    func localDeclarationIsNotAProperty() {
        let source = """
            func work() {
                let task = UIApplication.shared.beginBackgroundTask(withName: "Work") {}
                UIApplication.shared.endBackgroundTask(task)
            }
            """
        #expect(!findings(source).contains { $0.ruleID == "BT005" })
    }

    @Test("A byte-order mark is skipped: no spurious finding, columns count from after it")
    func byteOrderMarkIsSkipped() throws {
        let source =
            "\u{FEFF}func work() {\n    let task = UIApplication.shared.beginBackgroundTask(withName: \"W\") {}\n"
            + "    UIApplication.shared.endBackgroundTask(task)\n}\n"
        let withMark = findings(source)
        let without = findings(String(source.dropFirst()))
        #expect(withMark.map(\.ruleID) == without.map(\.ruleID))
        #expect(withMark.map(\.location) == without.map(\.location))
        #expect(!withMark.contains { $0.ruleID == "BT005" })
        let oneLine = "\u{FEFF}let t = UIApplication.shared.beginBackgroundTask(withName: \"W\") {}\n"
        let begin = try #require(findings(oneLine).first { $0.ruleID == "BT001" })
        #expect(begin.location.column == 30)
    }

    @Test("A finding in Objective-C recommends the face Objective-C can call, not the Swift ones")
    func objectiveCFindingsNameTheObjectiveCFace() throws {
        let source = """
            - (void)upload {
                UIBackgroundTaskIdentifier task = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:nil];
                if (!self.ready) { return; }
                [[UIApplication sharedApplication] endBackgroundTask:task];
            }
            """
        let objectiveC = findings(source, path: "App/Uploader.m")
        #expect(!objectiveC.isEmpty)
        for finding in objectiveC {
            #expect(!finding.message.contains("SafeBackgroundTask"), "\(finding.ruleID): \(finding.message)")
            #expect(!finding.message.contains("withBackgroundTask"), "\(finding.ruleID): \(finding.message)")
        }
        #expect(objectiveC.contains { $0.message.contains("BTKBackgroundTask (the BackgroundTaskKitObjC product)") })
        let swift = findings(
            """
            func upload() {
                let task = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                guard ready else { return }
                UIApplication.shared.endBackgroundTask(task)
            }
            """)
        #expect(
            swift.contains { $0.message.contains("SafeBackgroundTask") || $0.message.contains("withBackgroundTask") })
        #expect(!swift.contains { $0.message.contains("BTKBackgroundTask") })
    }

    @Test("A begin in the else of a braceless `if (task != invalid)` is guarded (BT005), as with braces")
    func aBeginInTheElseOfABracelessIdentifierCheckIsGuarded() {
        func bt005(_ ifBranch: String) -> Bool {
            let source = """
                @implementation Uploader
                - (void)start {
                    if (self.bgTask != UIBackgroundTaskInvalid)
                        \(ifBranch)
                    else {
                        self.bgTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                            [[UIApplication sharedApplication] endBackgroundTask:self.bgTask];
                            self.bgTask = UIBackgroundTaskInvalid;
                        }];
                    }
                }
                @end
                """
            return findings(source, path: "App/Uploader.m").contains { $0.ruleID == "BT005" }
        }
        #expect(!bt005("NSLog(@\"already running %d\", (int)self.bgTask);"))
        #expect(!bt005("[self log:[self describe:self.bgTask]];"))
        #expect(!bt005("{ NSLog(@\"already running\"); }"))
        // Not a check of the identifier: still an overwrite.
        let unguarded = """
            @implementation Uploader
            - (void)start {
                if (self.verbose)
                    NSLog(@"starting");
                else {
                    self.bgTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                        [[UIApplication sharedApplication] endBackgroundTask:self.bgTask];
                        self.bgTask = UIBackgroundTaskInvalid;
                    }];
                }
            }
            @end
            """
        #expect(findings(unguarded, path: "App/Uploader.m").contains { $0.ruleID == "BT005" })
    }

    @Test("A begin in a block the project's helper runs on the main queue is on main, whoever calls the method")
    func aBeginInABlockRunOnMainByAHelperIsNotOffMain() {
        func rules(_ runner: String) -> Set<String> {
            let source = """
                @implementation Keeper
                - (void)addBackgroundTask {
                    \(runner) {
                        if (self->_bgTask != UIBackgroundTaskInvalid) return;
                        self->_bgTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Keep" expirationHandler:^{
                            [[UIApplication sharedApplication] endBackgroundTask:self->_bgTask];
                            self->_bgTask = UIBackgroundTaskInvalid;
                        }];
                    }];
                }
                - (void)connect {
                    dispatch_async(self.queue, ^{ [self addBackgroundTask]; });
                }
                @end
                """
            return Set(findings(source, path: "App/Keeper.m").map(\.ruleID))
        }
        #expect(
            !rules("[HelperTools dispatchAsync:NO reentrantOnQueue:dispatch_get_main_queue() withBlock:^").contains(
                "BT006"))
        #expect(!rules("[Runner runOnQueue:dispatch_get_main_queue() block:^").contains("BT006"))
        // The same begin in a block run on another queue, or straight in the method, is off main.
        #expect(rules("[HelperTools dispatchAsync:NO reentrantOnQueue:self.queue withBlock:^").contains("BT006"))
    }

    @Test("An expiration handler kept in a local and passed only as the handler is no completion (BT007)")
    func aHandlerKeptInALocalIsNotACompletion() {
        let objectiveC = """
            @implementation Downloader
            - (void)beginBackgroundTask {
                if (_task == UIBackgroundTaskInvalid) {
                    dispatch_block_t expirationHandler = ^{
                        [self cancelDownload];
                        [[UIApplication sharedApplication] endBackgroundTask:self->_task];
                        self->_task = UIBackgroundTaskInvalid;
                    };
                    _task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Download"
                                                                        expirationHandler:expirationHandler];
                }
            }
            - (void)terminateBackgroundTask {
                [[UIApplication sharedApplication] endBackgroundTask:_task];
                _task = UIBackgroundTaskInvalid;
            }
            @end
            """
        #expect(!findings(objectiveC, path: "App/Downloader.m").contains { $0.ruleID == "BT007" })
        // Passed on once more (to a completion too), it is both: still reported.
        let passedOn = objectiveC.replacingOccurrences(
            of: "expirationHandler:expirationHandler];",
            with: "expirationHandler:expirationHandler];\n        [self.session flushWithCompletion:expirationHandler];"
        )
        #expect(findings(passedOn, path: "App/Downloader.m").contains { $0.ruleID == "BT007" })
    }

    @Test("A handler that only assigns the optional local reads nothing before the call returns (BT006)")
    func aHandlerThatOnlyAssignsTheLocalDoesNotReadIt() {
        func bt006(_ handlerBody: String) -> Bool {
            let source = """
                func run() { queue.async { execute() } }
                func execute() {
                    var taskID: UIBackgroundTaskIdentifier?
                    taskID = UIApplication.shared.beginBackgroundTask(withName: "Write") {
                        \(handlerBody)
                    }
                    if let taskID { queue.async { UIApplication.shared.endBackgroundTask(taskID) } }
                }
                """
            return findings(source).contains { $0.ruleID == "BT006" }
        }
        #expect(!bt006("taskID = UIBackgroundTaskIdentifier.invalid"))
        #expect(bt006("if let taskID { UIApplication.shared.endBackgroundTask(taskID) }"))
        #expect(bt006("UIApplication.shared.endBackgroundTask(taskID!); taskID = nil"))
    }

    @Test("A local that shadows a property of the same name: each end is matched with its own variable")
    func aShadowingLocalIsNotTheProperty() {
        // The local is begun and only its handler ends it; the completion ends the property.
        let localBegun = """
            final class ContactsSync {
                var task = UIBackgroundTaskIdentifier.invalid
                func sync() {
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                        UIApplication.shared.endBackgroundTask(task)
                    }
                    client.sync { _ in
                        UIApplication.shared.endBackgroundTask(self.task)
                        self.task = .invalid
                    }
                }
            }
            """
        let local = findings(localBegun).filter { $0.ruleID != "BT001" }
        #expect(local.map(\.ruleID) == ["BT008"])
        #expect(local.first?.location.line == 5)
        #expect(local.first?.message.hasPrefix("Only the expiration handler ends `task`") == true)
        // The property is begun; the completion ends a local of the same name made from something else.
        let propertyBegun = """
            final class ContactsSync {
                var task = UIBackgroundTaskIdentifier.invalid
                func sync() {
                    self.task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                        UIApplication.shared.endBackgroundTask(self.task)
                    }
                    client.sync { other in
                        let task = other.identifier
                        UIApplication.shared.endBackgroundTask(task)
                    }
                }
            }
            """
        let property = findings(propertyBegun).filter { !["BT001", "BT005"].contains($0.ruleID) }
        #expect(property.map(\.ruleID) == ["BT008"])
        #expect(property.first?.message.hasPrefix("Only the expiration handler ends `self.task`") == true)
        // A copy of the property under the same name is the same identifier: no finding about a lost end.
        let copied = propertyBegun.replacingOccurrences(of: "let task = other.identifier", with: "let task = self.task")
        #expect(!findings(copied).contains { $0.ruleID == "BT008" })
    }

    @Test("BT005 behind an unlocked check off the main thread says that the check is what fails")
    func anUnlockedCheckOffMainIsNamed() {
        let source = """
            final class Uploader {
                var uploadTask = UIBackgroundTaskIdentifier.invalid
                func flushOnQueue() { queue.async { self.beginFlushTask() } }
                func beginFlushTask() {
                    guard uploadTask == .invalid else { return }
                    uploadTask = UIApplication.shared.beginBackgroundTask(withName: "Flush") {
                        UIApplication.shared.endBackgroundTask(self.uploadTask)
                        self.uploadTask = .invalid
                    }
                }
            }
            """
        let message = findings(source).first { $0.ruleID == "BT005" }?.message ?? ""
        #expect(message.hasPrefix("The check before this begin is not locked, and the begin runs off the main thread"))
        #expect(message.contains("`uploadTask`"))
    }
}
