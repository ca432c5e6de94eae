import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// BT007 for launch handlers: the expiration handler and the work both call `setTaskCompleted`.
struct DoubleCompletionRuleTests {
    private func findings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        return ModelFixture.summary(read.flatMap(DoubleCompletionRule(index: ProjectIndex(files: read)).findings(in:)))
    }

    @Test func anExpirationHandlerThatCompletesBesideTheWorksCompletionIsProven() {
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                        Task {
                            await refreshLibrary()
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
                """
            ]) == ["BT007 proven App.swift:2"])
    }

    @Test func aHandlerThatCancelsTheWorkFirstIsSuspectedAndAFlagTheWorkChecksIsClean() {
        #expect(
            findings([
                "Flush.swift": """
                final class Flusher {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "flush", using: nil) { task in
                            self.handle(task)
                        }
                    }
                    func handle(_ task: BGTask) {
                        let work = Task { await flush() }
                        task.expirationHandler = {
                            work.cancel()
                            task.setTaskCompleted(success: false)
                        }
                        Task {
                            await work.value
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
                """
            ]) == ["BT007 suspected Flush.swift:3"])
        #expect(
            findings([
                "App.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        var expired = false
                        task.expirationHandler = {
                            expired = true
                            task.setTaskCompleted(success: false)
                        }
                        refresh {
                            if !expired { task.setTaskCompleted(success: true) }
                        }
                    }
                }
                """
            ]) == [])
    }

    @Test func anExpirationHandlerThatOnlyCancelsIsClean() {
        #expect(
            findings([
                "App.m": """
                @implementation AppDelegate
                - (void)registerTasks {
                    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"refresh" usingQueue:nil launchHandler:^(BGTask *task) {
                        NSOperationQueue *queue = [NSOperationQueue new];
                        task.expirationHandler = ^{ [queue cancelAllOperations]; };
                        [queue addOperationWithBlock:^{ [task setTaskCompletedWithSuccess:YES]; }];
                    }];
                }
                @end
                """
            ]) == [])
    }

    @Test func aNestedFunctionThatCompletesIsACompletionAndOneBeforeTheHandlerIsSetIsNot() {
        #expect(
            findings([
                "Central.swift": """
                final class Central {
                    func register() {
                        scheduler.register(forTaskWithIdentifier: "sync", using: nil) { task in
                            self.handle(task: task)
                        }
                    }
                    private func handle(task: BGTask) {
                        guard enabled else {
                            task.setTaskCompleted(success: false)
                            return
                        }
                        func finish() {
                            task.setTaskCompleted(success: true)
                        }
                        task.expirationHandler = { finish() }
                        controller.process { finish() }
                    }
                }
                """
            ]) == ["BT007 proven Central.swift:3"])
        #expect(
            findings([
                "Early.swift": """
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                        guard enabled else {
                            task.setTaskCompleted(success: false)
                            return
                        }
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                    }
                }
                """
            ]) == [])
    }
}
