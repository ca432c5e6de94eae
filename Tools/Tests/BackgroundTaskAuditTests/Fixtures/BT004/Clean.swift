// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class FeedRefresher {
    let app = UIApplication.shared
    let lock = NSLock()

    // sample: ends synchronously, then dispatches other work
    func refresh() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Refresh feed") {
            Feed.cancel()
            self.app.endBackgroundTask(task)
            task = .invalid
            DispatchQueue.main.async { self.showPausedBanner() }
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: ends through a same-file helper, strongly
    func prefetch() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Prefetch") {
            self.finish(task)
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: [weak self] only for the cleanup; the end does not depend on self
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        let app = self.app
        task = app.beginBackgroundTask(withName: "Upload") { [weak self] in
            self?.cancelUpload()
            app.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: the end inside a closure that runs synchronously
    func archive() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Archive") {
            self.lock.withLock {
                self.app.endBackgroundTask(task)
                task = .invalid
            }
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: the package's face with [weak self] in its cleanup
    func download() {
        guard flushTask == .invalid else { return }
        let task = SafeBackgroundTask.begin("Download") { [weak self] in
            self?.cancelUpload()
        }
        Downloads.start { task.end() }
    }

    // sample: [weak self] for the cleanup, then a guard on the identifier, not on self
    func sync() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Sync") { [weak self] in
            self?.cancelUpload()
            guard task != .invalid else { return }
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: guard let self whose else branch ends the task before it returns
    func compact() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Compact") { [weak self] in
            guard let self = self else {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
                return
            }
            self.cancelUpload()
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    // sample: if let self around the cleanup only; the end follows it
    func export() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export") { [weak self] in
            if let self {
                self.cancelUpload()
            }
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }

    func finish(_ task: UIBackgroundTaskIdentifier) {
        app.endBackgroundTask(task)
    }

    func cancelUpload() {}
    func showPausedBanner() {}
}

final class Flusher {
    let app = UIApplication.shared
    var flushTask = UIBackgroundTaskIdentifier.invalid
    var finishTask = UIBackgroundTaskIdentifier.invalid
    let queue = DispatchQueue(label: "flush")

    // sample: the handler is a local closure constant that ends the task synchronously
    func flushOnBackground() {
        guard finishTask == .invalid else { return }
        let finish: () -> Void = {
            UIApplication.shared.endBackgroundTask(self.finishTask)
            self.finishTask = .invalid
        }
        finishTask = app.beginBackgroundTask(withName: "Flush", expirationHandler: finish)
        Flush.run(completion: finish)
    }

    // sample: the end is two same-file helper calls away (cancel → reset → end)
    func download() {
        guard flushTask == .invalid else { return }
        flushTask = app.beginBackgroundTask(withName: "Download") { [self] in
            cancelDownload()
        }
        Download.start { self.resetTask() }
    }

    func cancelDownload() {
        Download.stop()
        resetTask()
    }

    func resetTask() {
        app.endBackgroundTask(flushTask)
        flushTask = .invalid
    }

    // sample: a helper that ends inside a closure run by a function that is synchronous by name
    func sendInBackground() {
        guard flushTask == .invalid else { return }
        flushTask = app.beginBackgroundTask(withName: "Send") { [self] in
            endSendTask()
        }
        Sender.send { self.endSendTask() }
    }

    func endSendTask() {
        performQueueSync {
            app.endBackgroundTask(flushTask)
            flushTask = .invalid
        }
    }

    // sample: a forwarding shim: the handler only calls the caller's handler
    func beginShimTask(_ handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
        app.beginBackgroundTask(withName: "Shim") { handler?() }
    }
}

final class BranchingUploader {
    var isUploading = false

    // sample: both branches of the if end the task
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            if self.isUploading {
                Uploader.cancel()
                UIApplication.shared.endBackgroundTask(task)
            } else {
                UIApplication.shared.endBackgroundTask(task)
            }
            task = .invalid
        }
        Uploader.start(endingTask: task)
    }

    // sample: the if is about the task itself
    func refresh() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Refresh") {
            if task != .invalid {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
        Feed.refresh(endingTask: task)
    }
}

final class TaskAssertion {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    // sample: [weak self] in the handler of an object whose deinit ends the task: once the object is gone, so is
    // the task
    init(name: String) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.finish()
        }
    }

    deinit {
        finish()
    }

    func finish() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

final class PlaybackCache {
    private var task = UIBackgroundTaskIdentifier.invalid
    private var expirationHandler: (() -> Void)?

    // sample: the handler is kept in a property first, and ends the task before it returns
    func flushToDisk(app: UIApplication) {
        guard task == .invalid else { return }
        self.expirationHandler = {
            Cache.cancelWrite()
            app.endBackgroundTask(self.task)
            self.task = .invalid
        }
        task = app.beginBackgroundTask(withName: "Flush cache", expirationHandler: self.expirationHandler)
        Cache.write()
        app.endBackgroundTask(task)
        task = .invalid
    }
}

final class ExpiringSessions {
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: the handler's helper ends through a dispatch helper named synchronous (`dispatchSyncMainThreadSafe`)
    func start() {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Sessions") {
            self.expired()
        }
        Sessions.run { self.expired() }
    }

    private func expired() {
        Threading.dispatchSyncMainThreadSafe {
            guard self.task != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.task)
            self.task = .invalid
        }
    }
}
