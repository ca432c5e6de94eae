// swift-format-ignore-file
import UIKit

final class Uploader {
    let app = UIApplication.shared
    var currentTask = UIBackgroundTaskIdentifier.invalid

    // sample: the handler ends without a reset, the completion ends again
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload") {
            self.app.endBackgroundTask(task)
        }
        Uploads.start { _ in
            self.app.endBackgroundTask(task)  // expect: BT007
        }
    }

    // sample: an error path ends, and the normal path ends again
    func save(failed: Bool) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Save") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        if failed {
            app.endBackgroundTask(task)
        }
        Store.flush()
        app.endBackgroundTask(task)  // expect: BT007
    }

    // sample: a defer ends, and so does the body
    func compact() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Compact") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        defer { app.endBackgroundTask(task) }
        Store.compact()
        app.endBackgroundTask(task)  // expect: BT007
    }

    // sample: finish and cancel both end the stored identifier
    func start() {
        currentTask = app.beginBackgroundTask(withName: "Transfer") {  // expect: BT005
            self.app.endBackgroundTask(self.currentTask)
            self.currentTask = .invalid
        }
    }

    func finish() {
        app.endBackgroundTask(currentTask)
    }

    func cancel() {
        app.endBackgroundTask(currentTask)  // expect: BT007
    }
}

final class Transfers {
    let app = UIApplication.shared
    var transferTask = UIBackgroundTaskIdentifier.invalid

    // sample: finish ends without a reset; cancel resets, but only after ending the same identifier again
    func start() {
        transferTask = app.beginBackgroundTask(withName: "Transfer") {  // expect: BT005
            self.app.endBackgroundTask(self.transferTask)
            self.transferTask = .invalid
        }
    }

    func finish() {
        app.endBackgroundTask(transferTask)
    }

    func cancel() {
        app.endBackgroundTask(transferTask)  // expect: BT007
        transferTask = .invalid
    }
}

final class EventUploader {
    let app = UIApplication.shared
    let queue = DispatchQueue(label: "upload")
    var uploadTask = UIBackgroundTaskIdentifier.invalid

    // sample: check-then-end on a private queue and in the handler on the main thread, no lock
    func uploadOnBackground() {
        guard uploadTask == .invalid else { return }
        uploadTask = app.beginBackgroundTask(withName: "Upload events") {
            self.app.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
        queue.async {
            Events.upload()
            if self.uploadTask != .invalid {
                self.app.endBackgroundTask(self.uploadTask)  // expect: BT007
                self.uploadTask = .invalid
            }
        }
    }
}

final class MetricsFlusher {
    let app = UIApplication.shared
    let queue = DispatchQueue(label: "metrics")
    var flushTask = UIBackgroundTaskIdentifier.invalid

    // sample: one helper, called by the handler (main) and from a queue
    func flushOnBackground() {
        endFlushTaskIfNeeded()
        flushTask = app.beginBackgroundTask(withName: "Flush metrics") {
            self.endFlushTaskIfNeeded()
        }
        queue.async {
            Metrics.flush()
            self.endFlushTaskIfNeeded()
        }
    }

    func endFlushTaskIfNeeded() {
        if flushTask != .invalid {
            app.endBackgroundTask(flushTask)  // expect: BT007
            flushTask = .invalid
        }
    }
}

final class Archiver {
    var archiveTask = UIBackgroundTaskIdentifier.invalid

    // sample: the handler ends its local copy but resets the property, which may hold a newer task
    func archive() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Archive") {  // expect: BT005
            UIApplication.shared.endBackgroundTask(task)
            self.archiveTask = .invalid  // expect: BT007
        }
        archiveTask = task
        Archive.run { UIApplication.shared.endBackgroundTask(task) }  // expect: BT007
    }
}

final class SessionUploader {
    let app = UIApplication.shared
    var sessionTask = UIBackgroundTaskIdentifier.invalid

    // sample: the completion ends the property as it is when it runs; the foreground ends it first
    func applicationDidEnterBackground() {
        let finish: () -> Void = {
            if self.sessionTask != .invalid {
                self.app.endBackgroundTask(self.sessionTask)  // expect: BT007
                self.sessionTask = .invalid
            }
        }
        sessionTask = app.beginBackgroundTask(withName: "Session", expirationHandler: finish)
        Session.flush(completion: finish)
    }

    func applicationWillEnterForeground() {
        if sessionTask != .invalid {
            app.endBackgroundTask(sessionTask)
            sessionTask = .invalid
        }
    }
}

@MainActor
final class ArticleStatusSyncer {
    var statusTask = UIBackgroundTaskIdentifier.invalid
    var isRunning = false

    // sample: the expiration handler clears the one-at-a-time flag, so after an expiry the next run begins while
    // this run's work goes on, and this run's completion ends the newer task
    func syncStatus() {
        guard !isRunning else { return }
        isRunning = true
        let complete = {
            self.isRunning = false
            UIApplication.shared.endBackgroundTask(self.statusTask)  // expect: BT007
            self.statusTask = .invalid
        }
        statusTask = UIApplication.shared.beginBackgroundTask(withName: "Article status") {
            self.isRunning = false
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

    // sample: an end helper that never resets the identifier, called by the handler and after the work
    private func endFeedbackTask() {
        guard let feedbackTask else { return }
        UIApplication.shared.endBackgroundTask(feedbackTask)
    }

    func sendInBackground() async {
        startFeedbackTask()
        await Feedback.drain()
        endFeedbackTask()  // expect: BT007
    }
}

final class FeedRefresher {
    private let session = URLSession.shared
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: the shared session's completion runs on its own queue, racing the handler's unlocked end
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
        UIApplication.shared.endBackgroundTask(task)  // expect: BT007
        task = .invalid
    }
}

final class ShareUploader {
    private var taskID = UIBackgroundTaskIdentifier.invalid

    // sample: the caller gets a copy of the identifier, while the handler ends and resets only its own
    func beginUpload() -> UIBackgroundTaskIdentifier {
        guard taskID == .invalid else { return taskID }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "Share upload") {
            UIApplication.shared.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
        return taskID  // expect: BT007
    }
}
