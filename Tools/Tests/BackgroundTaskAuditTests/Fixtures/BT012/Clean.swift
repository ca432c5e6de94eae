// swift-format-ignore-file
import BackgroundTasks

final class AppDelegate {
    // sample: the expiration handler cancels the work
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = { feed.cancel() }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
    }

    // sample: the handling method sets it
    func registerCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            self.handleCleanup(task: task as! BGProcessingTask)
        }
    }

    func handleCleanup(task: BGProcessingTask) {
        let work = Task { await database.compact() }
        task.expirationHandler = { work.cancel() }
        Task {
            await work.value
            task.setTaskCompleted(success: !work.isCancelled)
        }
    }

    // sample: SafeTaskScheduler, which installs the handler itself
    func registerSync() throws {
        try SafeTaskScheduler.shared.register("com.example.sync") {
            try await sync.run()
        }
    }
}
