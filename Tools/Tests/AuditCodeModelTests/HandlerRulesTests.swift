import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT003 and BT004 on the code model: proven where every link is in the project, suspected where a link is not, and
/// an end one call away in another file, a superclass or an inline helper is followed. Each pair is written for
/// this project, after the classes of false findings and misses that issue 34 lists.
struct HandlerRulesTests {
    /// The findings for every begin of `files` (path → source; `.m` files are Objective-C).
    private func findings(_ files: [String: String]) -> [AnalysisFinding] {
        let read = ModelFixture.read(files)
        let index = ProjectIndex(files: read)
        let rules = HandlerRules(index: index)
        return read.flatMap { BeginSite.all(in: $0, index: index) }.flatMap(rules.findings(for:))
    }

    private func summary(_ findings: [AnalysisFinding]) -> [String] {
        ModelFixture.summary(findings)
    }

    // MARK: - BT003

    @Test func aMissingNilOrEmptyHandlerIsAProvenBT003InEitherLanguage() {
        let found = findings([
            "A.swift": """
            func a() {
                let x = UIApplication.shared.beginBackgroundTask(withName: "A")
                let y = UIApplication.shared.beginBackgroundTask(withName: "B", expirationHandler: nil)
                let z = UIApplication.shared.beginBackgroundTask(withName: "C") {}
            }
            """,
            "B.m": """
            @implementation B
            - (void)b {
                UIBackgroundTaskIdentifier t = [app beginBackgroundTaskWithExpirationHandler:nil];
            }
            @end
            """,
        ])
        #expect(
            summary(found) == [
                "BT003 proven A.swift:2", "BT003 proven A.swift:3", "BT003 proven A.swift:4", "BT003 proven B.m:3",
            ])
        #expect(found.first?.chain.last?.text.contains("without an expiration handler") == true)
    }

    // MARK: - BT004, proven

    @Test func anEndOnlyInsideAsyncIsAProvenLateEndNamingTheLine() throws {
        let found = findings([
            "Sync.swift": """
            final class Sync {
                var task = UIBackgroundTaskIdentifier.invalid
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                        DispatchQueue.main.async {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                }
            }
            """
        ])
        #expect(summary(found) == ["BT004 proven Sync.swift:4"])
        let late = try #require(found.first?.chain.last)
        #expect(late.location.line == 6)
        #expect(late.text.contains("`async`"))
    }

    @Test func aHandlerWithNoEndAnywhereIsAProvenBT004() {
        let found = findings([
            "Log.swift": """
            func flush() {
                let id = UIApplication.shared.beginBackgroundTask(withName: "Flush") {
                    print("expired")
                }
            }
            """
        ])
        #expect(summary(found) == ["BT004 proven Log.swift:2"])
    }

    @Test func anEndInOneBranchOnlyIsProvenAndNamesTheOtherPath() throws {
        let found = findings([
            "Branch.swift": """
            func save() {
                var id = UIBackgroundTaskIdentifier.invalid
                id = UIApplication.shared.beginBackgroundTask(withName: "Save") {
                    if saving {
                        UIApplication.shared.endBackgroundTask(id)
                    }
                }
            }
            """
        ])
        #expect(summary(found) == ["BT004 proven Branch.swift:3"])
        #expect(found.first?.chain.contains { $0.location.line == 4 } == true)
    }

    @Test func aPathThatLeavesOnlyWhenThereIsNoTaskToEndIsFine() {
        let found = findings([
            "Valid.swift": """
            func sync() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Sync") { [weak self] in
                    self?.cancel()
                    guard task != .invalid else { return }
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }
            func refresh() {
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: "Refresh") {
                    if task != .invalid {
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                }
            }
            """
        ])
        #expect(summary(found) == [])
    }

    @Test func aGuardThatUnwrapsTheIdentifierItEndsLeavesOnlyWhenThereIsNoTask() {
        // The handler and the work both unwrap an optional identifier property before ending it.
        let source = """
            final class Events {
                var taskID: UIBackgroundTaskIdentifier?
                func upload() {
                    guard taskID == nil else { return }
                    self.taskID = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                        guard let id = self.taskID else { return }
                        UIApplication.shared.endBackgroundTask(id)
                        self.taskID = nil
                    }
                    Task {
                        await self.process()
                        guard let id = self.taskID else { return }
                        await UIApplication.shared.endBackgroundTask(id)
                        self.taskID = nil
                    }
                }
            }
            """
        #expect(summary(findings(["Events.swift": source])) == [])
        let file = ModelFixture.read("Events.swift", source)
        #expect(summary(EarlyExitRule(index: ProjectIndex(files: [file])).findings(in: file)) == [])
    }

    @Test func anEndInsideIfLetOfTheIdentifierEndsOnEveryPathThatHasATask() {
        let found = findings([
            "Merge.swift": """
            func merge() {
                var task: UIBackgroundTaskIdentifier?
                task = UIApplication.shared.beginBackgroundTask(withName: "Merge") {
                    if let task { UIApplication.shared.endBackgroundTask(task) }
                    task = nil
                }
            }
            """
        ])
        #expect(summary(found) == [])
    }

    @Test func anObjectiveCReturnWhenTheIdentifierIsInvalidIsNotAMissingEnd() {
        let found = findings([
            "Save.m": """
            @implementation Saver
            - (void)save {
                __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
                    if (task == UIBackgroundTaskInvalid) return;
                    [app endBackgroundTask:task];
                    task = UIBackgroundTaskInvalid;
                }];
                [self.store saveWithCompletion:^{ [app endBackgroundTask:task]; }];
            }
            @end
            """
        ])
        #expect(summary(found) == [])
    }

    @Test func anObjectiveCTestOfTheIdentifierItselfIsACheckForATaskButAnotherFlagIsNot() {
        let found = findings([
            "Keep.m": """
            @implementation Keeper
            - (void)keep {
                self.task = [app beginBackgroundTaskWithExpirationHandler:^{
                    if (self.task) {
                        [app endBackgroundTask:self.task];
                        self.task = UIBackgroundTaskInvalid;
                    }
                }];
            }
            - (void)keepUnlessDone {
                self.task = [app beginBackgroundTaskWithExpirationHandler:^{
                    if (self.done) {
                        [app endBackgroundTask:self.task];
                    }
                }];
            }
            @end
            """
        ])
        #expect(summary(found) == ["BT004 proven Keep.m:11"])
    }

    @Test func aHandlerInsideCanImportUIKitIsRead() {
        let found = findings([
            "Flush.swift": """
            func flush() async {
                #if canImport(UIKit)
                var id: UIBackgroundTaskIdentifier = .invalid
                id = UIApplication.shared.beginBackgroundTask(withName: "Flush") {
                    Task { @MainActor in UIApplication.shared.endBackgroundTask(id) }
                }
                await send()
                UIApplication.shared.endBackgroundTask(id)
                #endif
            }
            """
        ])
        #expect(summary(found) == ["BT004 proven Flush.swift:4"])
    }

    @Test func aShimThatPassesItsCallersHandlerOnIsNotItsOwnBT004() {
        let found = findings([
            "Shim.swift": """
            final class Tasks {
                func begin(named name: String, expirationHandler handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
                    UIApplication.shared.beginBackgroundTask(withName: name) { handler?() }
                }
                func begin(_ name: String, onExpiry: @escaping () -> Void) -> UIBackgroundTaskIdentifier {
                    UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: onExpiry)
                }
            }
            """
        ])
        #expect(summary(found) == [])
    }

    // MARK: - BT004, followed through project code (false findings of the token scanner)

    @Test func anEndInASuperclassHelperInAnotherFileIsFollowed() {
        let found = findings([
            "BaseOperation.swift": """
            class BaseOperation: Operation {
                var task = UIBackgroundTaskIdentifier.invalid
                func finishTask() {
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
            }
            """,
            "Upload.swift": """
            final class UploadOperation: BaseOperation {
                override func main() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                        self.finishTask()
                    }
                }
            }
            """,
        ])
        #expect(found.isEmpty, "\(summary(found))")
    }

    @Test func aHelperThatEndsTheTaskItTakesOutOfADictionaryEndsEveryLiveTask() {
        let found = findings([
            "Tasks.swift": """
            final class LongTasks {
                private var running: [String: UIBackgroundTaskIdentifier] = [:]
                func begin(_ key: String) {
                    if running[key] == nil {
                        running[key] = UIApplication.shared.beginBackgroundTask(withName: key) {
                            self.end(key)
                        }
                    }
                }
                func end(_ key: String) {
                    if let task = running.removeValue(forKey: key) {
                        UIApplication.shared.endBackgroundTask(task)
                    }
                }
                func forget(_ key: String) {
                    running[key] = nil
                }
                func beginForgotten(_ key: String) {
                    running[key] = UIApplication.shared.beginBackgroundTask(withName: key) {
                        self.forget(key)
                    }
                }
            }
            """
        ])
        #expect(summary(found) == ["BT004 proven Tasks.swift:19"])
    }

    @Test func aNameManyDeclarationsShareIsNotFollowedAndTheEndIsOnlySuspected() {
        func source(_ count: Int) -> [String: String] {
            var files = [
                "Sync.swift": """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    let worker: AnyObject
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                            self.worker.stop()
                        }
                    }
                }
                """
            ]
            for index in 0..<count {
                files["Worker\(index).swift"] = """
                    final class Worker\(index) {
                        var task = UIBackgroundTaskIdentifier.invalid
                        func stop() { UIApplication.shared.endBackgroundTask(task) }
                    }
                    """
            }
            return files
        }
        #expect(summary(findings(source(EndAnalysis.mostDeclarationsFollowed))) == [])
        #expect(
            summary(findings(source(EndAnalysis.mostDeclarationsFollowed + 1))) == ["BT004 suspected Sync.swift:5"])
    }

    @Test func anEndThroughAHelperThatRunsItsBlockInlineIsOnTime() {
        let helpers = """
            func onMainNow(_ work: () -> Void) {
                if Thread.isMainThread { work() } else { DispatchQueue.main.sync(execute: work) }
                work()
            }
            func onMainLater(_ work: @escaping () -> Void) {
                DispatchQueue.main.async { work() }
            }
            """
        let inline = findings([
            "Helpers.swift": helpers,
            "A.swift": """
            func a() {
                var id = UIBackgroundTaskIdentifier.invalid
                id = UIApplication.shared.beginBackgroundTask(withName: "A") {
                    onMainNow { UIApplication.shared.endBackgroundTask(id) }
                }
            }
            """,
        ])
        #expect(inline.isEmpty, "\(summary(inline))")
        let later = findings([
            "Helpers.swift": helpers,
            "B.swift": """
            func b() {
                var id = UIBackgroundTaskIdentifier.invalid
                id = UIApplication.shared.beginBackgroundTask(withName: "B") {
                    onMainLater { UIApplication.shared.endBackgroundTask(id) }
                }
            }
            """,
        ])
        #expect(summary(later) == ["BT004 proven B.swift:3"])
    }

    @Test func anEndInTheNilSelfBranchMeansEveryPathEnds() {
        let found = findings([
            "Player.swift": """
            final class Player {
                var task = UIBackgroundTaskIdentifier.invalid
                func play() {
                    let id = UIApplication.shared.beginBackgroundTask(withName: "Play") { [weak self] in
                        guard let self else {
                            UIApplication.shared.endBackgroundTask(id)
                            return
                        }
                        self.stop()
                        UIApplication.shared.endBackgroundTask(id)
                    }
                    task = id
                }
                func stop() {}
            }
            """
        ])
        #expect(found.isEmpty, "\(summary(found))")
    }

    // MARK: - BT004, suspected

    @Test func anEndBehindWeakSelfIsSuspectedNotProven() throws {
        let found = findings([
            "Cache.swift": """
            final class Cache {
                var task = UIBackgroundTaskIdentifier.invalid
                func flush() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Flush") { [weak self] in
                        guard let self else { return }
                        UIApplication.shared.endBackgroundTask(self.task)
                    }
                }
            }
            """,
            "Cache.m": """
            @implementation ObjCCache
            - (void)flush {
                __weak typeof(self) weakSelf = self;
                self.task = [app beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
                    [weakSelf endTask];
                }];
            }
            - (void)endTask {
                [app endBackgroundTask:self.task];
            }
            @end
            """,
        ])
        #expect(summary(found) == ["BT004 suspected Cache.m:4", "BT004 suspected Cache.swift:4"])
        #expect(found.last?.chain.contains { $0.location.line == 5 && $0.isEstablished } == true)
    }

    @Test func aStrongObjectiveCHandlerCallingAnEndingMethodIsClean() {
        let found = findings([
            "Uploader.m": """
            @implementation Uploader
            - (void)upload {
                self.task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                    [self endTask];
                }];
            }
            - (void)endTask {
                [app endBackgroundTask:self.task];
                self.task = UIBackgroundTaskInvalid;
            }
            @end
            """
        ])
        #expect(found.isEmpty, "\(summary(found))")
    }

    @Test func aHandlerThatCallsAClosurePropertyIsSuspected() {
        let found = findings([
            "Job.swift": """
            final class Job {
                var onExpire: (() -> Void)?
                func run() {
                    let id = UIApplication.shared.beginBackgroundTask(withName: "Job") {
                        self.onExpire?()
                    }
                }
            }
            """
        ])
        #expect(summary(found) == ["BT004 suspected Job.swift:4"])
        #expect(found.first?.chain.contains { !$0.isEstablished && $0.text.contains("onExpire") } == true)
    }

    @Test func aShimsCallersHandlersAreCheckedAtTheCall() {
        let found = findings([
            "BackgroundManager.m": """
            @implementation BackgroundManager
            - (void)createSaveTask:(dispatch_block_t)handler {
                if (self.saveTaskId == UIBackgroundTaskInvalid) {
                    self.saveTaskId = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:^{
                        handler();
                    }];
                }
            }
            - (void)stopBackgroundActivities {
                [[UIApplication sharedApplication] endBackgroundTask:self.saveTaskId];
                self.saveTaskId = UIBackgroundTaskInvalid;
            }
            @end
            """,
            "PeerManager.m": """
            @interface PeerManager ()
            @property (nonatomic, strong) BackgroundManager *backgroundManager;
            @end
            @implementation PeerManager
            - (void)connect {
                [self.backgroundManager createSaveTask:^{
                    dispatch_async(dispatch_get_main_queue(), ^{
                        [self.backgroundManager stopBackgroundActivities];
                    });
                }];
            }
            - (void)connectSafely {
                [self.backgroundManager createSaveTask:^{
                    [self.backgroundManager stopBackgroundActivities];
                }];
            }
            @end
            """,
        ])
        #expect(summary(found) == ["BT004 proven PeerManager.m:6"])
        #expect(found.first?.chain.first?.text.contains("passes this handler to `createSaveTask`") == true)
    }

    @Test func aShimWhoseOwnHandlerEndsTheTaskOwnsTheEndAndItsCallersAreNotChecked() {
        let found = findings([
            "Keeper.swift": """
            final class Keeper {
                var id = UIBackgroundTaskIdentifier.invalid
                func begin(_ onExpire: @escaping () -> Void) {
                    id = UIApplication.shared.beginBackgroundTask {
                        onExpire()
                        UIApplication.shared.endBackgroundTask(self.id)
                        self.id = .invalid
                    }
                }
                func beginAndForget(_ onExpire: @escaping () -> Void) {
                    id = UIApplication.shared.beginBackgroundTask { onExpire() }
                }
            }
            """,
            "Client.swift": """
            final class Client {
                let keeper = Keeper()
                func start() {
                    keeper.begin { }
                    keeper.beginAndForget { }
                }
            }
            """,
        ])
        // Only the caller of the shim that passes the handler on, and does nothing else, is checked.
        #expect(summary(found) == ["BT003 proven Client.swift:5"])
    }

    @Test func aProjectMethodNamedLikeTheBeginIsNotUIKits() {
        let found = findings([
            "Operation.m": """
            @implementation Operation
            - (void)beginBackgroundTask {
                self.taskID = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:^{
                    [[UIApplication sharedApplication] endBackgroundTask:self.taskID];
                }];
            }
            - (void)work {
                [self beginBackgroundTask];
            }
            @end
            """,
            "Uploader.swift": """
            final class Uploader {
                func beginBackgroundTask() {
                    UIApplication.shared.beginBackgroundTask(withName: "Upload") { }
                }
                func upload() {
                    beginBackgroundTask()
                }
            }
            """,
        ])
        // The raw calls inside the methods are checked; the calls of the methods are not begins.
        #expect(summary(found) == ["BT003 proven Uploader.swift:3"])
    }

    @Test func aShimCallOnAReceiverOfUnknownTypeIsOnlySuspected() {
        // `helper` has no declared type: `register(_:)` may be another type's, or a library's, method of that name.
        let found = findings([
            "Keeper.swift": """
            final class Keeper {
                var id = UIBackgroundTaskIdentifier.invalid
                func register(_ onExpire: @escaping () -> Void) {
                    id = UIApplication.shared.beginBackgroundTask { onExpire() }
                }
            }
            """,
            "Client.swift": """
            final class Client {
                func start(helper: AnyObject) {
                    helper.register { print("expired") }
                }
            }
            """,
        ])
        #expect(summary(found) == ["BT004 suspected Client.swift:3"])
        #expect(found.first?.chain.first?.isEstablished == false)
    }

    @Test func aShimCallThroughATypedPropertyIsProven() {
        let found = findings([
            "Keeper.swift": """
            final class Keeper {
                var id = UIBackgroundTaskIdentifier.invalid
                func register(_ onExpire: @escaping () -> Void) {
                    id = UIApplication.shared.beginBackgroundTask { onExpire() }
                }
            }
            """,
            "Client.swift": """
            final class Client {
                let keeper: Keeper? = nil
                func start() {
                    keeper?.register { print("expired") }
                }
            }
            """,
        ])
        #expect(summary(found) == ["BT004 proven Client.swift:4"])
    }

    @Test func aHandlerHeldInALocalIsNotAnotherTypesMethodOfTheSameName() {
        let found = findings([
            "Begins.swift": """
            final class Begins {
                func begin(name: String) {
                    let handler = entries.handler(for: name)
                    let granted = application.beginBackgroundTask(withName: name, expirationHandler: handler)
                    store(granted)
                }
            }
            """,
            "Reporter.swift": """
            final class Reporter {
                func handler() {
                    log("expired")
                }
            }
            """,
        ])
        #expect(summary(found) == ["BT004 suspected Begins.swift:4"])
    }

    @Test func aHandlerThatCallsOnlyCodeThatCannotReachAnEndIsProvenHoweverManyDeclarationsShareItsName() {
        // Five `close` methods: too many to follow one by one, but none of them ends a task or calls one that does.
        let closers = (1...5).map { "final class Closer\($0) { func close() { print(\($0)) } }" }
        let found = findings([
            "Closers.swift": closers.joined(separator: "\n"),
            "Sync.swift": """
            final class Sync {
                var task = UIBackgroundTaskIdentifier.invalid
                let file = Closer1()
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") { close() }
                    UIApplication.shared.endBackgroundTask(task)
                }
            }
            """,
        ])
        #expect(summary(found) == ["BT004 proven Sync.swift:5"])
    }
}
