import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT011 and BT012 on the code model, followed into the project code a launch handler hands its task to.
struct LaunchHandlerRulesTests {
    private func findings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        return ModelFixture.summary(read.flatMap(LaunchHandlerRules(index: ProjectIndex(files: read)).findings(in:)))
    }

    /// The proven findings only: what the default level reports.
    private func proven(_ files: [String: String]) -> [String] {
        findings(files).filter { $0.contains(" proven ") }
    }

    @Test func aHandlerThatSetsTheExpirationHandlerAndCompletesIsClean() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        guard let task = task as? BGAppRefreshTask else { return }
                        task.expirationHandler = { operation.cancel() }
                        refresh { task.setTaskCompleted(success: $0) }
                    }
                }
                """
            ]) == ["BT011 suspected App.swift:2"])  // `refresh` is not the project's: that it calls back is not shown
    }

    @Test func anAvailabilityCheckIsReadAsOnACurrentSystem() {
        #expect(
            findings([
                "Agent.m": """
                @implementation Agent
                - (void)start {
                    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"refresh" usingQueue:nil
                                                                        launchHandler:^(BGTask *task) {
                        [self handle:task];
                    }];
                }
                - (void)handle:(BGAppRefreshTask *)task {
                    if (@available(iOS 13.0, *)) {
                        task.expirationHandler = ^{ [task setTaskCompletedWithSuccess:NO]; };
                        [self send];
                        [task setTaskCompletedWithSuccess:YES];
                    } else {
                        NSLog(@"not on this system");
                    }
                }
                @end
                """,
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "clean", using: nil) { task in
                        guard #available(iOS 15, *) else { return }
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                        if #unavailable(iOS 14) {
                            return
                        } else {
                            task.setTaskCompleted(success: true)
                        }
                    }
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "leak", using: nil) { task in
                        task.expirationHandler = { work.cancel() }
                        if #available(iOS 16, *) {
                            return
                        }
                        task.setTaskCompleted(success: true)
                    }
                }
                """,
            ]) == ["BT011 proven App.swift:14"])
    }

    @Test func aHandlerThatSetsNoExpirationHandlerIsAProvenBT012() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        refresh { task.setTaskCompleted(success: true) }
                    }
                }
                """
            ]) == ["BT012 proven App.swift:2", "BT011 suspected App.swift:2"])
    }

    @Test func theExpirationHandlerSetInAMethodTheTaskIsHandedToIsFollowed() {
        #expect(
            proven([
                "Scheduler.swift": """
                final class Scheduler {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                            self.handleSync(task as! BGProcessingTask)
                        }
                    }
                }
                """,
                "Scheduler+Sync.swift": """
                extension Scheduler {
                    func handleSync(_ task: BGProcessingTask) {
                        task.expirationHandler = { self.stop() }
                        sync { task.setTaskCompleted(success: true) }
                    }
                }
                """,
            ]) == [])
        #expect(
            proven([
                "AppDelegate.m": """
                @implementation AppDelegate
                - (void)registerTasks {
                    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"sync" usingQueue:nil launchHandler:^(BGTask *task) {
                        [self handleSync:task];
                    }];
                }
                - (void)handleSync:(BGTask *)task {
                    [task setExpirationHandler:^{ [self stop]; }];
                    [self syncWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
                }
                @end
                """
            ]) == [])
    }

    @Test func aHandlerThatNeverCompletesOrCompletesOnlyOnExpiryIsProvenAtTheRegistration() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        task.expirationHandler = { feed.cancel() }
                        feed.refresh()
                    }
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "clean", using: nil) { task in
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                        cache.clean()
                    }
                }
                """
            ]) == ["BT011 proven App.swift:2", "BT011 proven App.swift:6"])
    }

    @Test func aReturnThatCompletesIsFineAndAReturnInTheMethodThatOwnsTheCompletionIsNot() {
        #expect(
            findings([
                "App.swift": """
                final class App {
                    func registerTasks() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "check", using: nil) { task in
                            task.expirationHandler = { checker.stop() }
                            guard isAuthorized else { return task.setTaskCompleted(success: true) }
                            checker.run { task.setTaskCompleted(success: $0) }
                        }
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                            self.handleSync(task: task)
                        }
                    }
                    func handleSync(task: BGTask) {
                        task.expirationHandler = { sync.cancel() }
                        if !network.isReachable {
                            return
                        }
                        sync.run { task.setTaskCompleted(success: true) }
                    }
                }
                """
            ]) == ["BT011 proven App.swift:15"])
    }

    @Test func aCompletionOnlyInAnotherLibrarysCallbackIsSuspectedAndOneOnAQueueIsNot() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "upload", using: nil) { task in
                        task.expirationHandler = { uploader.cancel() }
                        uploader.upload { result in task.setTaskCompleted(success: result) }
                    }
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "compact", using: nil) { task in
                        task.expirationHandler = { store.interrupt() }
                        DispatchQueue.global().async {
                            store.compact()
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
                """
            ]) == ["BT011 suspected App.swift:2"])
    }

    @Test func aHandlerThatCompletesBeforeItReturnsNeedsNoExpirationHandler() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "schedule", using: .main) { task in
                        scheduleSync()
                        scheduleCleanup()
                        task.setTaskCompleted(success: true)
                    }
                }
                """
            ]) == [])
    }

    @Test func aGuardOnAWeakSelfThatLeavesIsSuspected() {
        #expect(
            findings([
                "Manager.swift": """
                final class Manager {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { [weak self] task in
                            guard let self else { return }
                            task.expirationHandler = { task.setTaskCompleted(success: false) }
                            self.refresh()
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
                """
            ]) == ["BT011 suspected Manager.swift:4"])
    }

    @Test func aTaskHandedToCodeTheIndexCannotReadIsSuspected() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "upload", using: nil) { task in
                        UploadLibrary.handle(task)
                    }
                }
                """
            ]) == ["BT012 suspected App.swift:2", "BT011 suspected App.swift:2"])
    }

    @Test func anImpossibleFailedCastIsNoPathButAnotherGuardIs() {
        let source = """
            func registerTasks() {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                    task.expirationHandler = {}
                    guard isEnabled else { return }
                    task.setTaskCompleted(success: true)
                }
            }
            """
        #expect(findings(["App.swift": source]) == ["BT011 proven App.swift:4"])
    }

    @Test func aCompletionOnOneBranchOnlyIsSuspectedAndOneOnEveryBranchIsNot() {
        let source = """
            final class Refresher {
                func register() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        task.expirationHandler = { self.stop() }
                        self.handle(task)
                    }
                }
                func handle(_ task: BGTask) {
                    if network.isReachable {
                        task.setTaskCompleted(success: true)
                    }
                }
                func stop() {}
            }
            """
        #expect(findings(["App.swift": source]) == ["BT011 suspected App.swift:3"])
        let everyBranch = source.replacingOccurrences(
            of: "true)\n        }",
            with: "true)\n        } else {\n            task.setTaskCompleted(success: false)\n        }")
        #expect(findings(["App.swift": everyBranch]) == [])
    }

    @Test func aTaskHandedOnUnderItsCastNameIsFollowedToTheHelpersEarlyExit() {
        #expect(
            proven([
                "Dispatcher.swift": """
                final class Dispatcher {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                            guard let refreshTask = task as? BGAppRefreshTask else { return }
                            self.handle(refreshTask)
                        }
                    }
                    private func handle(_ backgroundTask: BGAppRefreshTask) {
                        guard let site = session.currentSite else { return }
                        backgroundTask.expirationHandler = { work.cancel() }
                        sync(site)
                        backgroundTask.setTaskCompleted(success: true)
                    }
                }
                """
            ]) == ["BT011 proven Dispatcher.swift:9"])
    }

    @Test func anExpirationHandlerThatOnlyLogsWhileTheWorkCompletesLaterIsSuspected() {
        func refresh(_ expiry: String) -> [String: String] {
            [
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "cleanup", using: nil) { task in
                        task.expirationHandler = {
                            \(expiry)
                        }
                        Task {
                            await Store.shared.cleanUp()
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
                """
            ]
        }
        #expect(findings(refresh("FileLog.shared.addMessage(\"cleanup expired\")")) == ["BT011 suspected App.swift:2"])
        #expect(findings(refresh("")) == ["BT011 suspected App.swift:2"])
        #expect(
            findings(refresh("Store.shared.cancelCleanUp()\n            task.setTaskCompleted(success: false)")).isEmpty
        )
    }

    @Test func anExitInsideATaskThatHoldsTheCompletionIsAPathButAFlagTheExpirySetsIsNot() {
        func refresh(_ work: String) -> [String: String] {
            [
                "Refresher.swift": """
                final class Refresher {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                            var completed = false
                            task.expirationHandler = {
                                completed = true
                                task.setTaskCompleted(success: false)
                            }
                            let recent = history.filter { entry in
                                guard entry.isValid else { return false }
                                return true
                            }
                            \(work)
                        }
                    }
                }
                """
            ]
        }
        let exits = """
            Task {
                        guard let session = store.session else { return }
                        await session.sync(recent)
                        task.setTaskCompleted(success: true)
                    }
            """
        let flagged = """
            DispatchQueue.main.async {
                        guard !completed else { return }
                        completed = true
                        sync(recent)
                        task.setTaskCompleted(success: true)
                    }
            """
        #expect(proven(refresh(exits)) == ["BT011 proven Refresher.swift:14"])
        #expect(proven(refresh(flagged)).isEmpty)
    }
}
