import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// A launch handler that hands its task on after a cast, a rebinding or a hop into a `Task`: the method it hands the
/// task to sets the expiration handler and completes the task, so nothing is reported.
struct LaunchHandlerHandOffTests {
    private func findings(_ source: String) -> [String] {
        let read = ModelFixture.read(["Tasks.swift": source])
        return ModelFixture.summary(read.flatMap(LaunchHandlerRules(index: ProjectIndex(files: read)).findings(in:)))
    }

    private static let handle = """
        final class Sync {
            func handle(_ task: BGAppRefreshTask) {
                task.expirationHandler = { self.stop() }
                self.stop()
                task.setTaskCompleted(success: true)
            }
            func stop() {}
        """

    @Test func aTaskHandedOnAfterAForcedCast() {
        #expect(
            findings(
                Self.handle + """
                        func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                                self.handle(task as! BGAppRefreshTask)
                            }
                        }
                    }
                    """) == [])
    }

    @Test func aTaskRebound() {
        #expect(
            findings(
                Self.handle + """
                        func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                                guard let refreshTask = task as? BGAppRefreshTask else { return }
                                self.handle(refreshTask)
                            }
                        }
                    }
                    """) == [])
    }

    @Test func aTaskHandedOnInsideATask() {
        #expect(
            findings(
                Self.handle + """
                        func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                                Task { await self.handleLater(task as! BGAppRefreshTask) }
                            }
                        }
                        func handleLater(_ task: BGAppRefreshTask) async {
                            handle(task)
                        }
                    }
                    """) == [])
    }

    @Test func aTaskHandedOnThroughAProtocolItConformsTo() {
        #expect(
            findings(
                """
                protocol RefreshTask: AnyObject {
                    var expirationHandler: (() -> Void)? { get set }
                    func setTaskCompleted(success: Bool)
                }
                extension BGAppRefreshTask: RefreshTask {}
                final class Refresher {
                    func register() {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "sync", using: nil) { task in
                            guard let refreshTask = task as? BGAppRefreshTask else { return }
                            self.handle(refreshTask)
                        }
                    }
                    func handle(_ task: RefreshTask) {
                        task.expirationHandler = { }
                        task.setTaskCompleted(success: true)
                    }
                }
                """) == [])
    }

    @Test func aTaskKeptInAPropertyAndCompletedThroughItIsSuspectedNotProvenIncomplete() {
        let source = """
            final class Fetcher {
                var task: BGProcessingTask?
                func register() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "fetch", using: nil) { task in
                        guard let processing = task as? BGProcessingTask else { return }
                        self.handle(task: processing)
                    }
                }
                func handle(task: BGProcessingTask) {
                    self.task = task
                    task.expirationHandler = { self.finish() }
                    collect { self.finish() }
                }
                func finish() {
                    self.task?.setTaskCompleted(success: true)
                }
            }
            """
        #expect(findings(source) == ["BT011 suspected Tasks.swift:4"])
        // Kept, and completed nowhere: that nothing completes it is shown.
        let never = source.replacingOccurrences(of: "self.task?.setTaskCompleted(success: true)", with: "print(0)")
        #expect(findings(never) == ["BT011 proven Tasks.swift:4"])
    }

    @Test func aGuardThatCastsTheTaskAndChecksMoreCanFailButACastAloneCannot() {
        let source = """
            final class Refresher {
                var isConfigured = false
                func register() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        guard let refresh = task as? BGAppRefreshTask, self.isConfigured else { return }
                        refresh.expirationHandler = { refresh.setTaskCompleted(success: false) }
                        self.sync { refresh.setTaskCompleted(success: true) }
                    }
                }
            }
            """
        #expect(findings(source) == ["BT011 proven Tasks.swift:5"])
        let castOnly = source.replacingOccurrences(of: ", self.isConfigured else", with: " else")
        #expect(findings(castOnly) == [])
    }
}
