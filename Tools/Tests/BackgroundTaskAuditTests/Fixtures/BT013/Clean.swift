// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    // sample: registered while launching
    func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = { feed.cancel() }
            feed.refresh { ok in task.setTaskCompleted(success: ok) }
        }
        registerMaintenance()
        return true
    }

    // sample: a helper called from didFinishLaunching
    func registerMaintenance() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            task.expirationHandler = { database.interrupt() }
            database.compact { task.setTaskCompleted(success: true) }
        }
    }
}

final class ExportViewController: UIViewController {
    // sample: continued processing, exempt from the launch rule, registered at the tap
    override func viewDidLoad() {
        super.viewDidLoad()
        let identifier = "com.example.app.export.\(UUID().uuidString)"
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.expirationHandler = { exporter.cancel() }
            exporter.run { task.setTaskCompleted(success: true) }
        }
        try? BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: identifier, title: "Export", subtitle: ""))
    }
}
