// swift-format-ignore-file
import UIKit

final class ContactSync {
    let app = UIApplication.shared
    let queue = DispatchQueue(label: "contacts")

    // The begins below run on this queue: their handlers (on main) can run before the assignment.
    func refresh() {
        queue.async {
            self.sync()
            self.merge()
            self.prune()
        }
    }

    // sample: an implicitly unwrapped var read by its own handler, begun off the main thread
    func sync() {
        var task: UIBackgroundTaskIdentifier!
        task = app.beginBackgroundTask(withName: "Sync contacts") {  // expect: BT006 BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: an optional var read by its own handler, begun off the main thread
    func merge() {
        var task: UIBackgroundTaskIdentifier?
        task = app.beginBackgroundTask(withName: "Merge contacts") {  // expect: BT006 BT008
            if let task { self.app.endBackgroundTask(task) }
            task = nil
        }
    }

    // sample: a var initialized to nil, begun off the main thread
    func prune() {
        var task: UIBackgroundTaskIdentifier? = nil
        task = app.beginBackgroundTask(withName: "Prune contacts") {  // expect: BT006 BT008
            self.app.endBackgroundTask(task ?? .invalid)
            task = nil
        }
    }

    // sample: a capture list copies the value before the call assigns it
    func export() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export contacts") { [task] in  // expect: BT006 BT008
            self.app.endBackgroundTask(task)
        }
    }
}

final class DownloadOperation: Operation {
    var downloadTask = UIBackgroundTaskIdentifier.invalid

    // sample: begun in an operation's start (off the main thread), stored after the call returns, read by the handler
    override func start() {
        downloadTask = UIApplication.shared.beginBackgroundTask(withName: "Download") {  // expect: BT006 BT008
            UIApplication.shared.endBackgroundTask(self.downloadTask)
            self.downloadTask = .invalid
            self.cancel()
        }
    }
}

final class Uploader {
    var uploadTask = UIBackgroundTaskIdentifier.invalid
    let queue = DispatchQueue(label: "upload")

    // sample: begun inside queue.async, stored in a property the handler reads
    func upload() {
        queue.async {
            self.uploadTask = UIApplication.shared.beginBackgroundTask(withName: "Upload") {  // expect: BT006 BT005 BT008
                UIApplication.shared.endBackgroundTask(self.uploadTask)
                self.uploadTask = .invalid
            }
        }
    }

    // sample: a function this file calls only from a queue
    func flushOnQueue() {
        queue.async { self.beginFlushTask() }
    }

    func beginFlushTask() {
        guard uploadTask == .invalid else { return }
        uploadTask = UIApplication.shared.beginBackgroundTask(withName: "Flush") {  // expect: BT006 BT008 BT005
            UIApplication.shared.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
    }
}

struct UploadInfo {
    var cleanup: (() -> Void)?

    // sample: an initializer that begins, run on a queue where the upload completes
    init(app: UIApplication) {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = app.beginBackgroundTask(withName: "Upload info") {  // expect: BT006
            app.endBackgroundTask(identifier)
        }
        cleanup = { app.endBackgroundTask(identifier) }  // expect: BT007
    }
}

final class UploadSession {
    let session = URLSession.shared

    func send(_ request: URLRequest) {
        session.dataTask(with: request) { _, _, _ in
            let info = UploadInfo(app: .shared)
            info.cleanup?()
        }.resume()
    }
}

actor TaskBox {
    var value: UIBackgroundTaskIdentifier?
    func set(_ task: UIBackgroundTaskIdentifier) { value = task }
    func take() -> UIBackgroundTaskIdentifier? { defer { value = nil }; return value }
}

final class DiskCleaner {
    // sample: the identifier is stored only later, in a Task, while the handler reads the stored value
    func cleanInBackground(app: UIApplication) {
        let box = TaskBox()
        let created = app.beginBackgroundTask(withName: "Clean disk") {  // expect: BT006 BT004
            Task { @MainActor in
                if let task = await box.take() { app.endBackgroundTask(task) }
            }
        }
        Task { await box.set(created) }
        Disk.clean {
            Task { @MainActor in if let task = await box.take() { app.endBackgroundTask(task) } }
        }
    }
}
