import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT008 on the code model: an exit after the begin with the task neither ended nor handed on, named at its line;
/// early exits after the task was ended or handed on are fine.
struct EarlyExitRuleTests {
    private func findings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        return ModelFixture.summary(read.flatMap(EarlyExitRule(index: ProjectIndex(files: read)).findings(in:)))
    }

    @Test func aGuardThatLeavesBeforeTheWorkIsProvenAtItsLine() {
        #expect(
            findings([
                "Upload.swift": """
                func upload(_ file: URL?) {
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                        UIApplication.shared.endBackgroundTask(task)
                    }
                    guard let file else { return }
                    client.send(file) { _ in UIApplication.shared.endBackgroundTask(task) }
                }
                """
            ]) == ["BT008 proven Upload.swift:6"])
    }

    @Test func aBeginWhoseIdentifierIsThrownAwaySaysSoNotThatItIsKeptInUnderscore() throws {
        let read = ModelFixture.read([
            "Discard.swift": """
            func run() {
                _ = UIApplication.shared.beginBackgroundTask(withName: "Discard") {
                    print("expired")
                }
                doWork()
            }
            """
        ])
        let found = read.flatMap(EarlyExitRule(index: ProjectIndex(files: read)).findings(in:))
        #expect(ModelFixture.summary(found) == ["BT008 proven Discard.swift:2"])
        let chain = try #require(found.first?.chain.map(\.text))
        #expect(chain.first == "begins a background task and throws its identifier away (`_ =`)")
        #expect(!chain.contains { $0.contains("`_`") })
    }

    @Test func anExitAfterTheEndOrAfterHandingTheTaskOnIsFine() {
        #expect(
            findings([
                "Save.swift": """
                func save() {
                    let task = UIApplication.shared.beginBackgroundTask(withName: "Save") {}
                    if failed {
                        UIApplication.shared.endBackgroundTask(task)
                        return
                    }
                    finish(task)
                    return
                }
                func finish(_ task: UIBackgroundTaskIdentifier) { UIApplication.shared.endBackgroundTask(task) }
                """
            ]) == [])
    }

    @Test func aRawValueAppendedToAListIsHandedOnAndAPlainLocalIsNot() {
        let source = """
            final class Uploads {
                var pending: [Int] = []
                func start() {
                    let task = UIApplication.shared.beginBackgroundTask(withName: "Upload") { self.finishAll() }
                    pending.append(task.rawValue)
                    if pending.count > 8 { return }
                    upload()
                }
                func finishAll() {
                    while let raw = pending.popLast() {
                        UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: raw))
                    }
                }
            }
            """
        #expect(findings(["Uploads.swift": source]) == [])
        let dropped = source.replacingOccurrences(of: "pending.append(task.rawValue)", with: "let raw = task.rawValue")
        #expect(findings(["Uploads.swift": dropped]) == ["BT008 proven Uploads.swift:6"])
    }

    @Test func aTaskOnlyItsHandlerEndsIsProven() {
        #expect(
            findings([
                "Keep.swift": """
                final class Keeper {
                    var keepAlive = UIBackgroundTaskIdentifier.invalid
                    func applicationDidEnterBackground() {
                        keepAlive = UIApplication.shared.beginBackgroundTask(withName: "Keep") {
                            UIApplication.shared.endBackgroundTask(self.keepAlive)
                        }
                        refresh()
                    }
                }
                """
            ]) == ["BT008 proven Keep.swift:4"])
    }

    @Test func anEndOfAnotherFunctionsLocalOfTheSameNameDoesNotHideAHandlerOnlyTask() {
        // Both functions name their local `task`; only the second ends its own outside the handler.
        #expect(
            findings([
                "Sync.swift": """
                final class Sync {
                    func pull() {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = UIApplication.shared.beginBackgroundTask(withName: "Pull") {
                            UIApplication.shared.endBackgroundTask(task)
                        }
                    }
                    func push() {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = UIApplication.shared.beginBackgroundTask(withName: "Push") {
                            UIApplication.shared.endBackgroundTask(task)
                        }
                        send { UIApplication.shared.endBackgroundTask(task) }
                    }
                }
                """
            ]) == ["BT008 proven Sync.swift:4"])
    }

    // Ended in other code, so not proven left to its handler; that the work reaches that end is not shown: suspected.
    @Test func aPropertyEndedInAnExtensionOrASuperclassInAnotherFileIsNotProvenLeftToItsHandler() {
        #expect(
            findings([
                "Base.swift": """
                class Base {
                    var work = UIBackgroundTaskIdentifier.invalid
                    func finish() {
                        UIApplication.shared.endBackgroundTask(work)
                        work = .invalid
                    }
                }
                """,
                "Upload.swift": """
                final class Upload: Base {
                    func start() {
                        self.work = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                            UIApplication.shared.endBackgroundTask(self.work)
                        }
                    }
                }
                """,
            ]) == ["BT008 suspected Upload.swift:3"])
    }

    @Test func returningTheIdentifierHandsItToTheCaller() {
        #expect(
            findings([
                "Network.m": """
                @implementation Network
                - (UIBackgroundTaskIdentifier)beginTaskWithHandler:(void (^)(void))handler {
                    __block UIBackgroundTaskIdentifier taskId = UIBackgroundTaskInvalid;
                    taskId = [app beginBackgroundTaskWithName:@"Network" expirationHandler:^{
                        if (handler) handler();
                        [app endBackgroundTask:taskId];
                    }];
                    return taskId;
                }
                @end
                """
            ]).isEmpty)
    }

    @Test func aPropertyKeptPastAReturnAndEndedThroughACopyOrItsInstanceVariableIsNotProvenLeftToItsHandler() {
        #expect(
            findings([
                "Telemetry.m": """
                @implementation Telemetry
                - (BOOL)startIfNeeded {
                    BOOL shouldStart = self.telemetryTask == UIBackgroundTaskInvalid;
                    if (shouldStart) {
                        self.telemetryTask = [app beginBackgroundTaskWithName:@"Telemetry" expirationHandler:^{
                            [self endIfNeeded];
                        }];
                    }
                    return shouldStart;
                }
                - (void)endIfNeeded {
                    UIBackgroundTaskIdentifier taskID = self.telemetryTask;
                    self.telemetryTask = UIBackgroundTaskInvalid;
                    [app endBackgroundTask:taskID];
                }
                @end
                """,
                "Shared.m": """
                @implementation SharedUpload
                - (instancetype)initWithName:(NSString *)name {
                    self = [super init];
                    if (self) {
                        _identifier = [app beginBackgroundTaskWithName:name expirationHandler:^{ [self endTask]; }];
                    }
                    return self;
                }
                - (void)endTask {
                    [app endBackgroundTask:self.identifier];
                    self.identifier = UIBackgroundTaskInvalid;
                }
                @end
                """,
            ]) == ["BT008 suspected Shared.m:5", "BT008 suspected Telemetry.m:5"])
    }

    @Test func leavingWhenTheBeginWasRefusedIsNotALeakButLeavingWithALiveTaskIs() {
        #expect(
            findings([
                "Run.swift": """
                enum Runner {
                    static func run(_ work: () -> Void) -> Bool {
                        let task = UIApplication.shared.beginBackgroundTask(withName: "Run") {}
                        if task == UIBackgroundTaskIdentifier.invalid {
                            return false
                        }
                        work()
                        UIApplication.shared.endBackgroundTask(task)
                        return true
                    }
                    static func runChecked(_ work: () -> Void) -> Bool {
                        let task = UIApplication.shared.beginBackgroundTask(withName: "Run") {}
                        guard task != .invalid else { return false }
                        if cancelled { return false }
                        work()
                        UIApplication.shared.endBackgroundTask(task)
                        return true
                    }
                }
                """,
                "Run.m": """
                @implementation Runner
                - (BOOL)run {
                    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Run" expirationHandler:^{}];
                    if (task == UIBackgroundTaskInvalid) {
                        return NO;
                    }
                    [self work];
                    [app endBackgroundTask:task];
                    return YES;
                }
                @end
                """,
            ]) == ["BT008 proven Run.swift:14"])
    }

    @Test func aPropertyEndedThroughAnOptionalBindingIsNotProvenLeftToItsHandler() {
        #expect(
            findings([
                "Loader.swift": """
                final class Loader {
                    private var task: UIBackgroundTaskIdentifier?
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Load") { [weak self] in
                            self?.finish()
                        }
                    }
                    func finish() {
                        guard let current = task else { return }
                        task = nil
                        UIApplication.shared.endBackgroundTask(current)
                    }
                }
                """,
                "Operation.swift": """
                final class WorkOperation {
                    var identifier: UIBackgroundTaskIdentifier?
                    func begin() {
                        identifier = UIApplication.shared.beginBackgroundTask { [weak self] in self?.end() }
                    }
                    func end() {
                        if let running = identifier, running != .invalid {
                            UIApplication.shared.endBackgroundTask(running)
                            identifier = .invalid
                        }
                    }
                }
                """,
            ]) == ["BT008 suspected Loader.swift:4", "BT008 suspected Operation.swift:4"])
    }

    @Test func aTryThatCanThrowOutBeforeTheEndIsProvenAndOneInsideDoCatchIsNot() {
        #expect(
            findings([
                "Save.swift": """
                final class Saver {
                    func save(_ data: Data) throws {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = UIApplication.shared.beginBackgroundTask(withName: "Save") {
                            UIApplication.shared.endBackgroundTask(task)
                            task = .invalid
                        }
                        try data.write(to: url)
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                    func saveQuietly(_ data: Data) {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = UIApplication.shared.beginBackgroundTask(withName: "Save") {
                            UIApplication.shared.endBackgroundTask(task)
                            task = .invalid
                        }
                        try? data.write(to: url)
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                }
                """
            ]) == ["BT008 proven Save.swift:8"])
    }

    @Test func anObjectiveCReturnBeforeTheEndIsProven() {
        #expect(
            findings([
                "Sender.m": """
                @implementation Sender
                - (void)send:(NSData *)data {
                    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Send" expirationHandler:^{}];
                    if (data == nil) {
                        return;
                    }
                    [self.client post:data completion:^{ [app endBackgroundTask:task]; }];
                }
                @end
                """
            ]) == ["BT008 proven Sender.m:5"])
    }

    @Test func anIdentifierStoredInAnotherObjectBeforeTheReturnIsHandedOn() {
        #expect(
            findings([
                "Holder.swift": """
                final class Holder {
                    var identifier = UIBackgroundTaskIdentifier.invalid
                    static func make() -> Holder {
                        let holder = Holder()
                        let identifier = UIApplication.shared.beginBackgroundTask(withName: "Hold") {}
                        holder.identifier = identifier
                        return holder
                    }
                    func stop() { UIApplication.shared.endBackgroundTask(identifier) }
                }
                """
            ]) == [])
    }
}
