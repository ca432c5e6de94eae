// swift-format-ignore-file
import BackgroundTasks

final class AppDelegate {
    // sample: completed when done, never told to stop
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in  // expect: BT012
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
    }

    // sample: the handling method has no expiration handler either
    func registerCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in  // expect: BT012
            self.handleCleanup(task: task as! BGProcessingTask)
        }
    }

    func handleCleanup(task: BGProcessingTask) {
        database.compact()
        task.setTaskCompleted(success: true)
    }

    // sample: a Task that runs the work, with nothing to cancel it
    func registerSync() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in  // expect: BT012
            Task {
                try? await sync.run()
                task.setTaskCompleted(success: true)
            }
        }
    }
}
