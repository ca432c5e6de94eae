// swift-format-ignore-file
// permitted: com.example.refresh com.example.cleanup com.example.app.export.*
import BackgroundTasks

final class AppDelegate {
    // sample: a typo in the registered identifier
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refersh", using: nil) { task in  // expect: BT014
            task.expirationHandler = { feed.cancel() }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
    }

    // sample: a request for an identifier the Info.plist does not list
    func scheduleSync() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))  // expect: BT014
    }

    // sample: a processing request with another app's prefix
    func scheduleCleanup() {
        let request = BGProcessingTaskRequest(identifier: "com.other.cleanup")  // expect: BT014
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    // sample: a continued-processing identifier outside the wildcard entry
    func export() {
        let request = BGContinuedProcessingTaskRequest(identifier: "com.example.app.exports.1", title: "Export", subtitle: "")  // expect: BT014
        try? BGTaskScheduler.shared.submit(request)
    }
}
