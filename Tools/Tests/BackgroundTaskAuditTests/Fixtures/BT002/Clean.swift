// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class Sync {
    let app = UIApplication.shared

    // sample: a literal name
    func pull() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Pull changes") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: a name in a variable, and an interpolated one
    func push(_ name: String, id: Int) {
        var first = UIBackgroundTaskIdentifier.invalid
        first = app.beginBackgroundTask(withName: name) {
            self.app.endBackgroundTask(first)
            first = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(first) }
        var second = UIBackgroundTaskIdentifier.invalid
        second = app.beginBackgroundTask(withName: "Push \(id)") {
            self.app.endBackgroundTask(second)
            second = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(second) }
    }

    // sample: a face begun with a nil name is not a raw call
    func merge() {
        let task = SafeBackgroundTask.begin(nil) { Merger.cancel() }
        Merger.run { task.end() }
    }

    // sample: an expiring activity with a reason
    func compact() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Compact store") { expired in
            if !expired { Store.compactSynchronously() }
        }
    }
}
