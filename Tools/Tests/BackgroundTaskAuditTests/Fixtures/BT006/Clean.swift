// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class ContactSync {
    let app = UIApplication.shared

    // sample: a non-optional var captured by reference
    func sync() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Sync contacts") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: an optional var the handler does not read
    func merge() {
        var task: UIBackgroundTaskIdentifier?
        let app = self.app
        var handlerTask = UIBackgroundTaskIdentifier.invalid
        handlerTask = app.beginBackgroundTask(withName: "Merge contacts") {
            app.endBackgroundTask(handlerTask)
            handlerTask = .invalid
        }
        task = handlerTask
        _ = task
        Work.finish {
            guard handlerTask != .invalid else { return }
            app.endBackgroundTask(handlerTask)
            handlerTask = .invalid
        }
    }

    // sample: the face, stored in an optional and ended from its own cleanup
    func prune() {
        var task: SafeBackgroundTask?
        task = SafeBackgroundTask.begin("Prune contacts") { task?.end() }
    }

    // sample: a capture list that captures other things
    func export(store: Store) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export contacts") { [weak self, store] in
            store.cancelExport()
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }
}

final class MainThreadContactSync {
    let app = UIApplication.shared

    // sample: an implicitly unwrapped var read by its own handler, begun on the main thread: the handler runs on
    // main too, so it cannot run before the call returns
    func sceneDidEnterBackground() {
        var task: UIBackgroundTaskIdentifier!
        task = app.beginBackgroundTask(withName: "Sync contacts") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: an optional var read by its own handler, in a method called only on the main thread
    func merge() {
        var task: UIBackgroundTaskIdentifier?
        task = app.beginBackgroundTask(withName: "Merge contacts") {
            if let task { self.app.endBackgroundTask(task) }
            task = nil
        }
        Work.finish { if let task { UIApplication.shared.endBackgroundTask(task) } }
    }
}

final class MainQueueUploader {
    var uploadTask = UIBackgroundTaskIdentifier.invalid
    let queue = DispatchQueue(label: "upload")

    // sample: work on a queue, but the begin hops to the main queue first
    func upload() {
        queue.async {
            DispatchQueue.main.async {
                guard self.uploadTask == .invalid else { return }
                self.uploadTask = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                    UIApplication.shared.endBackgroundTask(self.uploadTask)
                    self.uploadTask = .invalid
                }
                Uploads.start { _ in
                    UIApplication.shared.endBackgroundTask(self.uploadTask)
                    self.uploadTask = .invalid
                }
            }
        }
    }
}

final class UploadFinisher {
    private var tasks: [Int: UIBackgroundTaskIdentifier] = [:]

    // sample: begun inside a main-queue block and stored in the same block, before the handler can run
    func finishUpload(id: Int, store: UploadStore) {
        DispatchQueue.main.async {
            let app = UIApplication.shared
            let taskID = app.beginBackgroundTask(withName: "Finish upload") {
                app.endBackgroundTask(self.tasks[id] ?? .invalid)
                self.tasks[id] = nil
            }
            self.tasks[id] = taskID
            store.markFinished(id) {
                DispatchQueue.main.async {
                    app.endBackgroundTask(self.tasks[id] ?? .invalid)
                    self.tasks[id] = nil
                }
            }
        }
    }
}
