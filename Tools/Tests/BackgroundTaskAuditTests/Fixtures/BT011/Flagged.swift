// swift-format-ignore-file
import BackgroundTasks

final class AppDelegate {
    // sample: a handler that never completes the task, only cancels on expiry
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in  // expect: BT011
            task.expirationHandler = { feed.cancel() }
            feed.refresh()
        }
    }

    // sample: a guard that returns before the completion
    func registerCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            task.expirationHandler = { database.interrupt() }
            guard database.isOpen else { return }  // expect: BT011
            database.compact()
            task.setTaskCompleted(success: true)
        }
    }

    // sample: the handling method's error path returns without completing
    func registerSync() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.handleSync(task: task as! BGProcessingTask)
        }
    }

    func handleSync(task: BGProcessingTask) {
        task.expirationHandler = { sync.cancel() }
        if !network.isReachable {
            return  // expect: BT011
        }
        sync.run { task.setTaskCompleted(success: true) }
    }

    // sample: the launchHandler label form, never completed
    func registerIndex() {
        BGTaskScheduler.shared.register(  // expect: BT011
            forTaskWithIdentifier: "com.example.index", using: nil,
            launchHandler: { task in
                task.expirationHandler = { index.stop() }
                index.rebuild()
            })
    }
}
