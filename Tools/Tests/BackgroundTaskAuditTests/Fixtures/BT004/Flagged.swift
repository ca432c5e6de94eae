// swift-format-ignore-file
import UIKit

final class FeedRefresher {
    let app = UIApplication.shared

    // sample: the handler cleans up but never ends the task
    func refresh() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Refresh feed") {  // expect: BT004
            Feed.cancel()
        }
        Feed.refresh {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: the end is dispatched to the main queue: too late
    func prefetch() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Prefetch") {  // expect: BT004 BT008
            Feed.cancel()
            DispatchQueue.main.async {
                self.app.endBackgroundTask(task)
                task = .invalid
            }
        }
    }

    // sample: the end is inside a Task
    func archive() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Archive") {  // expect: BT004 BT008
            Task {
                await Archive.cancel()
                self.app.endBackgroundTask(task)
                task = .invalid
            }
        }
    }

    // sample: [weak self] and guard let self bail out before the end
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload") { [weak self] in  // expect: BT004 BT008
            guard let self else { return }
            self.cancelUpload()
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: a same-file helper reached only through self?
    func download() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Download") { [weak self] in  // expect: BT004 BT008
            self?.stop(task)
        }
    }

    // sample: guard let strongSelf = self bails out before the end
    func sync() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Sync") { [weak self] in  // expect: BT004 BT008
            guard let strongSelf = self else { return }
            strongSelf.cancelUpload()
            strongSelf.app.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: the end only inside if let self
    func compact() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Compact") { [weak self] in  // expect: BT004 BT008
            if let self {
                self.cancelUpload()
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
    }

    func stop(_ task: UIBackgroundTaskIdentifier) {
        app.endBackgroundTask(task)
    }

    func cancelUpload() {}
}

final class CacheCleaner {
    let app = UIApplication.shared

    // sample: the handler is a local closure constant whose end runs later, in a Task
    func cleanInBackground() {
        var task = UIBackgroundTaskIdentifier.invalid
        let endIfNeeded = {
            Task { @MainActor in
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
        task = app.beginBackgroundTask(withName: "Clean cache", expirationHandler: endIfNeeded)  // expect: BT004
        Cache.clean { endIfNeeded() }
    }

    // sample: a shim of the code base: its caller's handler is checked, and never ends the task
    func beginTask(named name: String, expirationHandler handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
        app.beginBackgroundTask(withName: name) { handler?() }
    }

    func uploadLogs() {
        let task = beginTask(named: "Logs") {  // expect: BT004
            Uploader.cancel()
        }
        Uploader.upload { _ in UIApplication.shared.endBackgroundTask(task) }
    }
}

final class ConditionalUploader {
    var isUploading = false

    // sample: the handler ends the task only inside one branch of an if
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {  // expect: BT004
            if self.isUploading {
                Uploader.cancel()
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
        Uploader.start(endingTask: task)
    }
}

final class PlaybackCache {
    private var task = UIBackgroundTaskIdentifier.invalid
    private var expirationHandler: (() -> Void)?

    // sample: the handler is kept in a property first, and ends only by posting to the main queue
    func flushToDisk(app: UIApplication) {
        guard task == .invalid else { return }
        self.expirationHandler = {
            DispatchQueue.main.async {
                app.endBackgroundTask(self.task)
                self.task = .invalid
            }
        }
        task = app.beginBackgroundTask(withName: "Flush cache", expirationHandler: self.expirationHandler)  // expect: BT004
        Cache.write()
        app.endBackgroundTask(task)
        task = .invalid
    }
}

final class TimedTask {
    private var taskId = UIBackgroundTaskIdentifier.invalid

    // sample: the handler calls a method that ends the task only by posting to the main queue
    func start(withExpirationHandler handler: @escaping () -> Void = {}) {
        guard taskId == .invalid else { return }
        taskId = UIApplication.shared.beginBackgroundTask(withName: "Timed") {  // expect: BT004
            handler()
            self.end()
        }
    }

    func workFinished() {
        end()
    }

    func end() {
        DispatchQueue.main.async {
            guard self.taskId != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.taskId)
            self.taskId = .invalid
        }
    }
}
