// swift-format-ignore-file
import UIKit

final class PhotoUploader {
    // sample: through UIApplication.shared, with a trailing closure
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Upload photos") {  // expect: BT001 BT008
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: through a variable, with the handler as an argument
    func sync(application: UIApplication) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = application.beginBackgroundTask(withName: "Sync", expirationHandler: {  // expect: BT001 BT008
            application.endBackgroundTask(task)
            task = .invalid
        })
    }

    // sample: a raw expiring activity in an extension
    func refresh() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh widgets") { expired in  // expect: BT001
            if !expired { Widgets.reloadSynchronously() }
        }
    }
}

extension UIApplication {
    // sample: no receiver, inside an extension of UIApplication
    func saveState() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = beginBackgroundTask(withName: "Save state") {  // expect: BT001 BT008
            self.endBackgroundTask(task)
            task = .invalid
        }
    }
}

final class ShareProvider {
    func beginBackgroundTask(withName name: String, expirationHandler handler: @escaping () -> Void)
        -> UIBackgroundTaskIdentifier
    {
        UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: handler)
    }
}

final class ShareController {
    // sample: the code base has a method with UIKit's name, but this call is on the application itself
    func share(application: UIApplication) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = application.beginBackgroundTask(withName: "Share") {  // expect: BT001
            application.endBackgroundTask(task)
            task = .invalid
        }
        Sharing.start { application.endBackgroundTask(task) }
    }
}

enum EventsUploader {
    // sample: a helper named like the API that takes no handler and makes its own: an app's task, not a wrapper
    static func beginBackgroundTask(named name: String) -> (() -> Void)? {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: name) {  // expect: BT001
            Log.warn("\(name) expired")
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        return {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}
