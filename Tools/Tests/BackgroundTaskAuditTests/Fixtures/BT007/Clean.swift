// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class Uploader {
    let app = UIApplication.shared

    // sample: the handler resets after its end; the completion may end the invalid value
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Uploads.start { _ in
            self.app.endBackgroundTask(task)
        }
    }

    // sample: two branches of one if/else
    func save(failed: Bool) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Save") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        if failed {
            app.endBackgroundTask(task)
        } else {
            Store.flush()
            app.endBackgroundTask(task)
        }
    }

    // sample: success and failure callbacks of one call
    func sync() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Sync") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Sync.run(
            success: { self.app.endBackgroundTask(task) },
            failure: { _ in self.app.endBackgroundTask(task) }
        )
    }

    // sample: an early exit after the first end
    func compact(skip: Bool) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Compact") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        if skip {
            app.endBackgroundTask(task)
            return
        }
        Store.compact()
        app.endBackgroundTask(task)
    }

    // sample: the face's end() is idempotent
    func archive() {
        let task = SafeBackgroundTask.begin("Archive")
        Archive.run { task.end() }
        task.end()
    }
}

final class SyncReset {
    let app = UIApplication.shared

    // sample: the end runs in a synchronous closure and the code right after it resets the identifier
    func flush() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Flush") {
            DispatchQueue.main.sync { self.app.endBackgroundTask(task) }
            task = .invalid
        }
        Store.flush { _ in
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }
}

final class LockedUploader {
    let app = UIApplication.shared
    let queue = DispatchQueue(label: "upload")
    let lock = NSLock()
    var uploadTask = UIBackgroundTaskIdentifier.invalid

    // sample: the queue side checks and ends under the same lock as the handler
    func uploadOnBackground() {
        guard uploadTask == .invalid else { return }
        uploadTask = app.beginBackgroundTask(withName: "Upload events") {
            self.lock.withLock {
                self.app.endBackgroundTask(self.uploadTask)
                self.uploadTask = .invalid
            }
        }
        queue.async {
            Events.upload()
            self.lock.withLock {
                if self.uploadTask != .invalid {
                    self.app.endBackgroundTask(self.uploadTask)
                    self.uploadTask = .invalid
                }
            }
        }
    }

    // sample: the work runs on a queue, the end hops back to the main queue
    func syncOnBackground() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Sync") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        queue.async {
            Store.sync()
            DispatchQueue.main.async {
                if task != .invalid {
                    self.app.endBackgroundTask(task)
                    task = .invalid
                }
            }
        }
    }
}

final class Refresher {
    let app = UIApplication.shared
    var refreshTask = UIBackgroundTaskIdentifier.invalid

    // sample: end the old task, then begin a new one into the same variable
    func refresh() {
        app.endBackgroundTask(refreshTask)
        refreshTask = app.beginBackgroundTask(withName: "Refresh") {
            self.app.endBackgroundTask(self.refreshTask)
            self.refreshTask = .invalid
        }
        Feed.refresh { self.finish() }
    }

    func finish() {
        app.endBackgroundTask(refreshTask)
        refreshTask = .invalid
    }
}

@MainActor
final class ArticleStatusSyncer {
    var statusTask = UIBackgroundTaskIdentifier.invalid
    var isRunning = false

    // sample: a one-at-a-time flag that only the run's own completion clears: no second run can begin before
    // this run's completion has ended its task
    func syncStatus() {
        guard !isRunning else { return }
        isRunning = true
        let complete = {
            UIApplication.shared.endBackgroundTask(self.statusTask)
            self.statusTask = .invalid
            self.isRunning = false
        }
        statusTask = UIApplication.shared.beginBackgroundTask(withName: "Article status") {
            UIApplication.shared.endBackgroundTask(self.statusTask)
            self.statusTask = .invalid
        }
        Task { @MainActor in
            await Articles.syncStatus()
            complete()
        }
    }
}

@MainActor
final class FeedbackSender {
    private var feedbackTask: UIBackgroundTaskIdentifier?

    private func startFeedbackTask() {
        guard feedbackTask == nil else { return }
        feedbackTask = UIApplication.shared.beginBackgroundTask(withName: "Feedback") {
            self.endFeedbackTask()
        }
    }

    // sample: an end helper called by the handler and after the work, which resets the identifier
    private func endFeedbackTask() {
        guard let feedbackTask else { return }
        UIApplication.shared.endBackgroundTask(feedbackTask)
        self.feedbackTask = nil
    }

    func sendInBackground() async {
        startFeedbackTask()
        await Feedback.drain()
        endFeedbackTask()
    }
}

final class FeedRefresher {
    private let session = URLSession(configuration: .default, delegate: nil, delegateQueue: .main)
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: a session made with the main delegate queue: its completion runs on the main thread, like the handler
    func refresh(_ url: URL) {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Refresh feed") {
            self.endTask()
        }
        session.dataTask(with: url) { _, _, _ in
            self.endTask()
        }.resume()
    }

    private func endTask() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

final class ShareUploader {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    // sample: the caller ends through the owner, which checks and resets: no copy to go stale
    func beginUpload() {
        guard taskID == .invalid else { return }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "Share upload") {
            self.endUpload()
        }
    }

    func endUpload() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

final class ReplySender {
    // sample: the end is in another API's completion, started from a global-queue block: the completion runs where
    // that API calls it back (a networking library's main queue), not on the block's queue
    func sendReply(_ text: String, api: ChatAPI) {
        let application = UIApplication.shared
        var sendTask = UIBackgroundTaskIdentifier.invalid
        sendTask = application.beginBackgroundTask(withName: "Send reply") {
            application.endBackgroundTask(sendTask)
            sendTask = .invalid
        }
        DispatchQueue.global().async {
            api.sendMessage(text) { _ in
                application.endBackgroundTask(sendTask)
                sendTask = .invalid
            }
        }
    }
}
