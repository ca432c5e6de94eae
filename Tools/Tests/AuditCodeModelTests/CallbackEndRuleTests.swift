import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// BT008 for a task ended only inside a callback that a path never reaches.
struct CallbackEndRuleTests {
    private func findings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        return ModelFixture.summary(read.flatMap(CallbackEndRule(index: ProjectIndex(files: read)).findings(in:)))
    }

    @Test func aProjectMethodThatReturnsWithoutCallingItsCompletionIsProvenAtTheBegin() {
        #expect(
            findings([
                "AppDelegate.m": """
                @implementation AppDelegate
                - (void)applicationDidEnterBackground:(UIApplication *)application {
                    UIBackgroundTaskIdentifier identifier = [application beginBackgroundTaskWithExpirationHandler:NULL];
                    [[SyncManager sharedManager] synchronizeWithCompletion:^(NSError *error) {
                        [application endBackgroundTask:identifier];
                    }];
                }
                @end
                """,
                "SyncManager.m": """
                @implementation SyncManager
                - (void)synchronizeWithCompletion:(void(^)(NSError *))completion {
                    if (!self.canSynchronize) return;
                    [self.ensemble mergeWithCompletion:^(NSError *error) {
                        if (completion) completion(error);
                    }];
                }
                @end
                """,
            ]) == ["BT008 proven AppDelegate.m:3"])
    }

    @Test func aCallbackPassedToAReceiverOfUnknownTypeIsOnlySuspected() {
        // `self.syncManager` has no declared type: another type's `synchronizeWithCompletion:` may be the one called.
        #expect(
            findings([
                "AppDelegate.m": """
                @implementation AppDelegate
                - (void)applicationDidEnterBackground:(UIApplication *)application {
                    UIBackgroundTaskIdentifier identifier = [application beginBackgroundTaskWithExpirationHandler:NULL];
                    [self.syncManager synchronizeWithCompletion:^(NSError *error) {
                        [application endBackgroundTask:identifier];
                    }];
                }
                @end
                """,
                "SyncManager.m": """
                @implementation SyncManager
                - (void)synchronizeWithCompletion:(void(^)(NSError *))completion {
                    if (!self.canSynchronize) return;
                    completion(nil);
                }
                @end
                """,
            ]) == ["BT008 suspected AppDelegate.m:3"])
    }

    @Test func aMethodThatCallsBackOnEveryPathIsCleanAndATrailingClosureFindsItsParameter() {
        #expect(
            findings([
                "Calls.swift": """
                final class Calls {
                    func report(seq: Int, completion: @escaping () -> Void) {
                        guard seq > 0 else {
                            completion()
                            return
                        }
                        provider.reportNewIncomingCall(seq) { _ in completion() }
                    }
                    func incoming(seq: Int) {
                        let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                        report(seq: seq) {
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                }
                """
            ]) == [])
        #expect(
            findings([
                "Calls.swift": """
                final class Calls {
                    func report(seq: Int, completion: @escaping () -> Void) {
                        if calls[seq] != nil { return }
                        provider.reportNewIncomingCall(seq) { _ in completion() }
                    }
                    func incoming(seq: Int) {
                        let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                        report(seq: seq) {
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                }
                """
            ]) == ["BT008 proven Calls.swift:7"])
    }

    @Test func aCallbackThatReturnsBeforeTheEndIsProvenAndAWeakSelfGuardIsSuspected() {
        #expect(
            findings([
                "Badge.m": """
                @implementation Badge
                - (void)update {
                    __block BOOL interrupted = NO;
                    __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:^{
                        interrupted = YES;
                    }];
                    [center getDeliveredNotificationsWithCompletionHandler:^(NSArray *notifications) {
                        if (interrupted) return;
                        dispatch_async(dispatch_get_main_queue(), ^{
                            [app endBackgroundTask:task];
                        });
                    }];
                }
                @end
                """,
                "Upload.swift": """
                final class Upload {
                    func start() {
                        let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                        session.upload { [weak self] in
                            guard let self else { return }
                            self.finish()
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                }
                """,
            ]) == ["BT008 proven Badge.m:8", "BT008 suspected Upload.swift:5"])
    }

    @Test func anEndOnlyInAnotherLibrarysCallbackIsSuspectedAndOneOnAQueueIsNot() {
        #expect(
            findings([
                "Flush.swift": """
                final class Flush {
                    func run() {
                        let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                        Analytics.flush {
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                    func runOnQueue() {
                        let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                        queue.async {
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                }
                """
            ]) == ["BT008 suspected Flush.swift:3"])
    }

    @Test func aReturnUnderACheckOfTheIdentifierIsNotALeak() {
        #expect(
            findings([
                "Locker.swift": """
                final class Locker {
                    func lock() {
                        var id = UIBackgroundTaskIdentifier.invalid
                        id = UIApplication.shared.beginBackgroundTask(withName: "Lock") { id = .invalid }
                        Task {
                            await self.pause()
                            guard id != .invalid else { return }
                            UIApplication.shared.endBackgroundTask(id)
                        }
                    }
                }
                """
            ]) == [])
    }
    @Test func aCompletionHandedOnToAMethodThatReturnsWithoutCallingItIsFollowed() {
        // `upload` hands its completion to `send` (as is) and `send` hands it to `post` (in a closure that calls it);
        // `post` returns at its guard without calling back: the task is never ended on that path.
        let source = """
            final class Uploader {
                static let shared = Uploader()
                func upload(_ data: Data, completion: @escaping () -> Void) {
                    send(data, completion)
                }
                func send(_ data: Data, _ done: @escaping () -> Void) {
                    post(data) { done() }
                }
                func post(_ data: Data, then finish: @escaping () -> Void) {
                    guard %@ else { return }
                    finish()
                }
            }

            final class Sync {
                func run(_ data: Data) {
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                        UIApplication.shared.endBackgroundTask(task)
                    }
                    Uploader.shared.upload(data) { UIApplication.shared.endBackgroundTask(task) }
                }
            }
            """
        let leaving = source.replacingOccurrences(of: "%@", with: "!data.isEmpty")
        let read = ModelFixture.read(["Sync.swift": leaving])
        let found = read.flatMap(CallbackEndRule(index: ProjectIndex(files: read)).findings(in:))
        #expect(ModelFixture.summary(found) == ["BT008 proven Sync.swift:18"])
        let chain = found.first?.chain.map(\.text) ?? []
        #expect(chain.contains("`upload` hands `completion` to `send`"))
        #expect(chain.contains("`send` hands `done` to `post`"))
        #expect(chain.last == "`post` returns here without calling `finish`: the task is never ended")
        // When `post` calls back on every path, so do `send` and `upload`.
        let callingBack = source.replacingOccurrences(of: "guard %@ else { return }\n", with: "")
        #expect(findings(["Sync.swift": callingBack]) == [])
    }
}
