// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class LogUploader {
    let app = UIApplication.shared

    // sample: a handler that ends the task
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload log") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Logs.upload { _ in
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: a handler passed in from elsewhere
    func rotate(handler: @escaping @MainActor @Sendable () -> Void) -> UIBackgroundTaskIdentifier {
        app.beginBackgroundTask(withName: "Rotate log", expirationHandler: handler)
    }

    // sample: a face without a cleanup still ends on expiry
    func compress() {
        let task = SafeBackgroundTask.begin("Compress log")
        Logs.compress { task.end() }
    }

    // sample: a handler that ends the task and logs
    func prune() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Prune log", expirationHandler: {
            Logs.note("pruning expired")
            self.app.endBackgroundTask(task)
            task = .invalid
        })
        Logs.prune {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }
}
