// swift-format-ignore-file
import UIKit

final class Sync {
    let app = UIApplication.shared

    // sample: no name at all, trailing closure
    func pull() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask {  // expect: BT002 BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: the unnamed overload with the handler as an argument
    func push() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(expirationHandler: {  // expect: BT002 BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        })
    }

    // sample: an explicit nil name
    func merge() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: nil) {  // expect: BT002 BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: an empty name
    func prune() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "") {  // expect: BT002 BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: an expiring activity with an empty reason
    func compact() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "") { expired in  // expect: BT002
            if !expired { Store.compactSynchronously() }
        }
    }
}
