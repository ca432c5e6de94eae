// swift-format-ignore-file
import UIKit

final class LogUploader {
    let app = UIApplication.shared

    // sample: no handler at all
    func upload() {
        let task = app.beginBackgroundTask(withName: "Upload log")  // expect: BT003
        Logs.upload { _ in self.app.endBackgroundTask(task) }
    }

    // sample: an explicit nil handler
    func rotate() {
        let task = app.beginBackgroundTask(withName: "Rotate log", expirationHandler: nil)  // expect: BT003
        Logs.rotate { self.app.endBackgroundTask(task) }
    }

    // sample: an empty closure
    func compress() {
        let task = app.beginBackgroundTask(withName: "Compress log") { }  // expect: BT003
        Logs.compress { self.app.endBackgroundTask(task) }
    }

    // sample: a closure with only a capture list and a comment
    func prune() {
        let task = app.beginBackgroundTask(withName: "Prune log") { [weak self] in  // expect: BT003
            // TODO: end the task
        }
        Logs.prune { self.app.endBackgroundTask(task) }
    }

    // sample: no arguments at all (also unnamed)
    func flush() {
        let task = app.beginBackgroundTask()  // expect: BT003 BT002
        Logs.flush { self.app.endBackgroundTask(task) }
    }
}
