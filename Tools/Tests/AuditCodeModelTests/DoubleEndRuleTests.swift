import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT007 on the code model: a handler that ends without resetting, and another end of the same variable.
struct DoubleEndRuleTests {
    private func findings(_ path: String, _ source: String) -> [String] {
        let file = ModelFixture.read(path, source)
        return ModelFixture.summary(DoubleEndRule().findings(in: file), withPath: false)
    }

    @Test func anEndOfAnotherFunctionsLocalIsNotASecondEndAndANilResetIsAReset() {
        #expect(
            findings(
                "Contacts.swift",
                """
                final class Contacts {
                    func sync() {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = app.beginBackgroundTask(withName: "Sync") {
                            app.endBackgroundTask(task)
                            task = .invalid
                        }
                        Work.finish { app.endBackgroundTask(task) }
                    }
                    func merge() {
                        var task: UIBackgroundTaskIdentifier?
                        task = app.beginBackgroundTask(withName: "Merge") {
                            if let task { app.endBackgroundTask(task) }
                            task = nil
                        }
                        Work.finish { if let task { app.endBackgroundTask(task) } }
                    }
                    func archive() {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = app.beginBackgroundTask(withName: "Archive") {
                            app.endBackgroundTask(task)
                        }
                    }
                }
                """
            ).isEmpty)
    }

    @Test func aResetToTheProjectsOwnInvalidConstantIsAReset() {
        #expect(
            findings(
                "Transform.m",
                """
                @implementation Transformer
                - (void)transform {
                    __block XYZBackgroundIdentifier taskID = XYZBackgroundIdentifierInvalid;
                    taskID = [self.application beginBackgroundTaskWithName:@"Transform" expirationHandler:^{
                        [self.application endBackgroundTask:taskID];
                        taskID = XYZBackgroundIdentifierInvalid;
                    }];
                    [self.transformer run];
                    [self.application endBackgroundTask:taskID];
                    taskID = XYZBackgroundIdentifierInvalid;
                }
                @end
                """
            ).isEmpty)
    }

    @Test func aHandlerThatCancelsTheWorkBeforeEndingMakesTheSecondEndSuspected() {
        #expect(
            findings(
                "Run.swift",
                """
                final class Run {
                    func run() {
                        var id: UIBackgroundTaskIdentifier! = nil
                        id = UIApplication.shared.beginBackgroundTask(withName: "Run") { [weak self] in
                            self?.subscription?.cancel()
                            UIApplication.shared.endBackgroundTask(id)
                        }
                        execute { _ in UIApplication.shared.endBackgroundTask(id) }
                    }
                }
                """
            ) == ["BT007 suspected 8"])
    }

    @Test func aHandlerThatEndsWithoutResettingAndACompletionThatEndsAgainIsProvenAtTheSecondEnd() {
        #expect(
            findings(
                "Sync.swift",
                """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                        client.sync { _ in
                            UIApplication.shared.endBackgroundTask(self.task)
                        }
                    }
                }
                """) == ["BT007 proven 8"])
        #expect(
            findings(
                "Flush.m",
                """
                @implementation Flush
                - (void)flush {
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [app beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                    [self.queue addOperationWithBlock:^{ [app endBackgroundTask:task]; }];
                }
                @end
                """) == ["BT007 proven 7"])
    }

    @Test func aHandlerThatResetsAfterEndingLeavesTheOtherEndHarmless() {
        #expect(
            findings(
                "Sync.swift",
                """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func start() {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {
                            UIApplication.shared.endBackgroundTask(self.task)
                            self.task = .invalid
                        }
                        client.sync { _ in
                            UIApplication.shared.endBackgroundTask(self.task)
                            self.task = .invalid
                        }
                    }
                }
                """) == [])
    }

    /// With the project index: a check-end-reset in the handler and another end on another thread.
    private func raced(_ path: String, _ source: String) -> [String] {
        let file = ModelFixture.read(path, source)
        return ModelFixture.summary(
            DoubleEndRule(index: ProjectIndex(files: [file])).findings(in: file), withPath: false)
    }

    @Test func aCheckEndResetRacedFromATaskOffMainIsProvenAndOneOnAQueueIsSuspected() {
        #expect(
            raced(
                "ScreenLocker.swift",
                """
                final class ScreenLocker {
                    var taskID: UIBackgroundTaskIdentifier = .invalid
                    func applicationDidEnterBackground() {
                        taskID = UIApplication.shared.beginBackgroundTask(withName: "Network") {
                            UIApplication.shared.endBackgroundTask(self.taskID)
                            self.taskID = .invalid
                        }
                        Task {
                            await self.pauseNetworks()
                            guard self.taskID != .invalid else { return }
                            UIApplication.shared.endBackgroundTask(self.taskID)
                            self.taskID = .invalid
                        }
                    }
                }
                """) == ["BT007 proven 4"])
        #expect(
            raced(
                "Tracker.swift",
                """
                final class Tracker: UIViewController {
                    var taskID: UIBackgroundTaskIdentifier = .invalid
                    func start() {
                        taskID = UIApplication.shared.beginBackgroundTask(withName: "Track") { self.stop() }
                        queue.async { self.send { self.stop() } }
                    }
                    func stop() {
                        guard taskID != .invalid else { return }
                        UIApplication.shared.endBackgroundTask(taskID)
                        taskID = .invalid
                    }
                }
                """) == ["BT007 suspected 4"])
    }

    @Test func anotherMethodsLocalOfThePropertysNameIsAnotherTask() {
        let source = """
            final class Fetcher {
                var backgroundTask: UIBackgroundTaskIdentifier = .invalid
                func enterBackground() {
                    backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "Stay") { self.finish() }
                }
                func finish() {
                    if backgroundTask != .invalid {
                        UIApplication.shared.endBackgroundTask(backgroundTask)
                        backgroundTask = .invalid
                    }
                }
                func fetch() {
                    var backgroundTask: UIBackgroundTaskIdentifier = .invalid
                    backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "Fetch") { self.log() }
                    Task.detached {
                        await self.download()
                        UIApplication.shared.endBackgroundTask(backgroundTask)
                    }
                }
                func fetchIntoTheProperty() {
                    Task.detached {
                        await self.download()
                        UIApplication.shared.endBackgroundTask(self.backgroundTask)
                    }
                }
            }
            """
        #expect(raced("Fetcher.swift", source) == ["BT007 proven 4"])
        let withoutThePropertysOwnRace = source.replacingOccurrences(
            of: "UIApplication.shared.endBackgroundTask(self.backgroundTask)", with: "self.log()")
        #expect(raced("Fetcher.swift", withoutThePropertysOwnRace) == [])
    }

    @Test func aLockOrEndsAllOnTheMainThreadLeaveTheCheckEndResetSafe() {
        #expect(
            raced(
                "Tracker.swift",
                """
                final class Tracker {
                    var taskID: UIBackgroundTaskIdentifier = .invalid
                    func start() {
                        taskID = UIApplication.shared.beginBackgroundTask(withName: "Track") { self.stop() }
                        DispatchQueue.global().async { self.work(); self.stop() }
                    }
                    func stop() {
                        lock.lock()
                        defer { lock.unlock() }
                        guard taskID != .invalid else { return }
                        UIApplication.shared.endBackgroundTask(taskID)
                        taskID = .invalid
                    }
                }
                final class Saver {
                    var taskID: UIBackgroundTaskIdentifier = .invalid
                    func start() {
                        taskID = UIApplication.shared.beginBackgroundTask(withName: "Save") { self.stop() }
                        save { DispatchQueue.main.async { self.stop() } }
                    }
                    func stop() {
                        guard taskID != .invalid else { return }
                        UIApplication.shared.endBackgroundTask(taskID)
                        taskID = .invalid
                    }
                }
                """) == [])
    }

    @Test func aLockOnlyAroundTheOtherEndDoesNotKeepTheHandlerOut() {
        #expect(
            raced(
                "Analytics.m",
                """
                @implementation Analytics
                - (void)publishOnBackground {
                    dispatch_async(dispatch_get_global_queue(0, 0), ^{
                        self.task = [app beginBackgroundTaskWithName:@"Publish" expirationHandler:^{
                            [self cleanup];
                        }];
                        [self publishAll];
                    });
                }
                - (void)publishAll {
                    @synchronized (self) {
                        dispatch_group_notify(group, dispatch_get_global_queue(0, 0), ^{
                            [self cleanup];
                        });
                    }
                }
                - (void)cleanup {
                    [app endBackgroundTask:self.task];
                    self.task = UIBackgroundTaskInvalid;
                }
                @end
                """) == ["BT007 proven 4"])
    }

    @Test func anEndThroughACopyInTheHandlersMethodIsFollowedToTheRace() {
        func session(otherCall: String) -> String {
            """
            @implementation Session
            - (void)appBecameBackground {
                self.bgTask = [app beginBackgroundTaskWithName:@"sync" expirationHandler:^{
                    [self maybeEndBgTask];
                }];
            }
            - (void)sessionDidEnd {
                [self.helper flushWithCompletion:^(NSError *error) {
                    \(otherCall)
                }];
            }
            - (void)maybeEndBgTask {
                if (self.bgTask == UIBackgroundTaskInvalid) { return; }
                UIBackgroundTaskIdentifier taskId = self.bgTask;
                self.bgTask = UIBackgroundTaskInvalid;
                [app endBackgroundTask:taskId];
            }
            @end
            """
        }
        // The completion of another library's flush runs on a thread the project does not show.
        #expect(raced("Session.m", session(otherCall: "[self maybeEndBgTask];")) == ["BT007 suspected 3"])
        // Made on the main queue, both ends run on one thread.
        let onMain = "dispatch_async(dispatch_get_main_queue(), ^{ [self maybeEndBgTask]; });"
        #expect(raced("Session.m", session(otherCall: onMain)).isEmpty)
    }

    @Test func aHandlerThatEndsACopyMadeBeforeTheBeginIsNoFirstEnd() {
        // The block copies `task` (not `__block`) while it is still invalid: its end ends nothing, so the completion's
        // end is the only end of the task (BT004 and BT006 report the handler).
        #expect(
            findings(
                "Push.m",
                """
                @implementation Push
                - (void)receive {
                    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                    [self.client fetch:^{
                        [app endBackgroundTask:task];
                    }];
                }
                @end
                """
            ).isEmpty)
    }
}
