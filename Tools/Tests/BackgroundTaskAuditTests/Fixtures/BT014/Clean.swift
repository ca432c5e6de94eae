// swift-format-ignore-file
// permitted: com.example.refresh com.example.cleanup com.example.app.export.*
import BackgroundTasks

final class AppDelegate {
    // sample: a listed identifier, registered and submitted
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = { feed.cancel() }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    // sample: a concrete identifier under the wildcard entry
    func export() {
        let request = BGContinuedProcessingTaskRequest(identifier: "com.example.app.export.movie", title: "Export", subtitle: "")
        try? BGTaskScheduler.shared.submit(request)
    }

    // sample: an identifier made at run time, and another API's identifier: parameter
    func schedule(_ name: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.\(name)"))
        let notification = UNNotificationRequest(identifier: "com.example.reminder", content: content, trigger: nil)
        center.add(notification)
    }
}
