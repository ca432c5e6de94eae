// swift-format-ignore-file
import UIKit

final class ContactSync {
    let app = UIApplication.shared

    // sample: an implicitly unwrapped var read by its own handler
    func sync() {
        var task: UIBackgroundTaskIdentifier!
        task = app.beginBackgroundTask(withName: "Sync contacts") {  // expect: BT006
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: an optional var read by its own handler
    func merge() {
        var task: UIBackgroundTaskIdentifier?
        task = app.beginBackgroundTask(withName: "Merge contacts") {  // expect: BT006
            if let task { self.app.endBackgroundTask(task) }
            task = nil
        }
    }

    // sample: a var initialized to nil
    func prune() {
        var task: UIBackgroundTaskIdentifier? = nil
        task = app.beginBackgroundTask(withName: "Prune contacts") {  // expect: BT006
            self.app.endBackgroundTask(task ?? .invalid)
            task = nil
        }
    }

    // sample: a capture list copies the value before the call assigns it
    func export() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export contacts") { [task] in  // expect: BT006
            self.app.endBackgroundTask(task)
        }
    }
}
