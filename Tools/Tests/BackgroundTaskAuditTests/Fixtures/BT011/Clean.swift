// swift-format-ignore-file
import BackgroundTasks

final class AppDelegate {
    // sample: completed on the work's completion and on expiry
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = {
                feed.cancel()
                task.setTaskCompleted(success: false)
            }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
    }

    // sample: the guard completes before returning
    func registerCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            task.expirationHandler = { database.interrupt() }
            guard database.isOpen else {
                task.setTaskCompleted(success: false)
                return
            }
            database.compact()
            task.setTaskCompleted(success: true)
        }
    }

    // sample: handed to a method of another file (its completion is there, not seen here)
    func registerSync() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            SyncCoordinator.shared.handle(task)
        }
    }

    // sample: an early return inside a completion closure is not the handler's
    func registerUpload() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in
            task.expirationHandler = { uploader.cancel() }
            uploader.start { result in
                guard result.isSuccess else { return task.setTaskCompleted(success: false) }
                task.setTaskCompleted(success: true)
            }
        }
    }
}
