// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class DraftSaver {
    var saveTask = UIBackgroundTaskIdentifier.invalid
    var tasks: [UUID: UIBackgroundTaskIdentifier] = [:]
    var current: SafeBackgroundTask?

    // sample: a parameter shadowing a property name
    func autosave(saveTask: inout UIBackgroundTaskIdentifier, handler: @escaping @MainActor @Sendable () -> Void) {
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "Autosave", expirationHandler: handler)
    }

    // sample: the face stored in a property
    func sync() {
        current = SafeBackgroundTask.begin("Sync") { Sync.cancel() }
    }

    // sample: behind an "already started" check of the same property
    func startUpload() {
        guard saveTask == .invalid else { return }
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            UIApplication.shared.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
    }

    // sample: the old task is ended (through a helper) before the new one is stored
    func restartUpload() {
        endUploadTask()
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            self.endUploadTask()
        }
        Uploads.start { _ in self.endUploadTask() }
    }

    func endUploadTask() {
        guard saveTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(saveTask)
        saveTask = .invalid
    }

    // sample: returned to the caller
    func makeTask(_ handler: @escaping @MainActor @Sendable () -> Void) -> UIBackgroundTaskIdentifier {
        return UIApplication.shared.beginBackgroundTask(withName: "Made", expirationHandler: handler)
    }
}

final class ExportSession {
    var task = UIBackgroundTaskIdentifier.invalid

    // sample: begun in the initializer, once per object
    init() {
        task = UIApplication.shared.beginBackgroundTask(withName: "Export") {
            UIApplication.shared.endBackgroundTask(self.task)
            self.task = .invalid
        }
        Exporter.run { self.finish() }
    }

    func finish() {
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

final class SessionTracker {
    var flushTask = UIBackgroundTaskIdentifier.invalid

    // sample: begun on entering the background, ended on the way back to the foreground
    func applicationDidEnterBackground() {
        flushTask = UIApplication.shared.beginBackgroundTask(withName: "Flush session") {
            self.endFlushTask()
        }
        Session.flush { self.endFlushTask() }
    }

    func applicationWillEnterForeground() {
        endFlushTask()
    }

    private func endFlushTask() {
        guard flushTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(flushTask)
        flushTask = .invalid
    }
}

final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

enum EventsFlusher {
    // sample: a box the function owns, not a property: each call has its own
    static func beginFlush(app: UIApplication) -> () -> Void {
        let taskID = Box(UIBackgroundTaskIdentifier.invalid)
        taskID.value = app.beginBackgroundTask(withName: "Flush events") {
            app.endBackgroundTask(taskID.value)
            taskID.value = .invalid
        }
        return { app.endBackgroundTask(taskID.value) }
    }
}

@MainActor
final class FeedSyncer {
    var syncTask = UIBackgroundTaskIdentifier.invalid
    var isSyncing = false

    // sample: a one-at-a-time flag, set before the begin and cleared with the end, keeps a second run out
    func syncFeeds() {
        guard !isSyncing else { return }
        isSyncing = true
        syncTask = UIApplication.shared.beginBackgroundTask(withName: "Sync feeds") {
            UIApplication.shared.endBackgroundTask(self.syncTask)
            self.syncTask = .invalid
        }
        Feeds.sync {
            self.isSyncing = false
            UIApplication.shared.endBackgroundTask(self.syncTask)
            self.syncTask = .invalid
        }
    }
}

final class ThumbnailWriter {
    private let queue = DispatchQueue(label: "thumbnails")
    private var taskID = UIBackgroundTaskIdentifier.invalid

    // sample: a local copied into the property, behind a check of the property
    func writeThumbnails() {
        DispatchQueue.main.async {
            guard self.taskID == .invalid else { return }
            let app = UIApplication.shared
            let id = app.beginBackgroundTask(withName: "Write thumbnails") {
                app.endBackgroundTask(self.taskID)
                self.taskID = .invalid
            }
            self.taskID = id
            self.queue.async {
                Thumbnails.encode()
                DispatchQueue.main.async {
                    if self.taskID != .invalid {
                        app.endBackgroundTask(self.taskID)
                        self.taskID = .invalid
                    }
                }
            }
        }
    }
}

final class SessionKeeper {
    private var backgroundTaskID = UIBackgroundTaskIdentifier.invalid
    private let lock = NSLock()

    // sample: a private begin helper that its only caller calls after checking the identifier, under a lock
    func ensureBackgroundTask(needed: Bool) {
        lock.withLock {
            let hasTask = backgroundTaskID != .invalid
            guard needed != hasTask else { return }
            guard !needed else {
                startBackgroundTask()
                return
            }
            UIApplication.shared.endBackgroundTask(backgroundTaskID)
            backgroundTaskID = .invalid
        }
    }

    func sessionEnded() {
        ensureBackgroundTask(needed: false)
    }

    private func startBackgroundTask() {
        backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Keep session") {
            self.ensureBackgroundTask(needed: false)
        }
    }
}

final class SessionTracker {
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: begun from the background notification's case, ended in the foreground notification's case
    @objc private func applicationStateChanged(_ notification: Notification) {
        switch notification.name {
        case UIApplication.didEnterBackgroundNotification:
            beginBackgroundTracking()
        case UIApplication.willEnterForegroundNotification:
            stopBackgroundTracking()
        default:
            return
        }
    }

    private func beginBackgroundTracking() {
        task = UIApplication.shared.beginBackgroundTask(withName: "Session tracking") {
            self.stopBackgroundTracking()
        }
    }

    private func stopBackgroundTracking() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

private final class BackgroundAssertion {
    private var id = UIBackgroundTaskIdentifier.invalid

    func begin(name: String) {
        id = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.end()
        }
    }

    func end() {
        guard id != .invalid else { return }
        UIApplication.shared.endBackgroundTask(id)
        id = .invalid
    }
}

struct BackgroundTimeRunner {
    // sample: a private type whose begin is only ever called on an object made for this one call, which the
    // caller ends through after the work
    @MainActor
    func withBackgroundTime(_ work: () async -> Void) async {
        let assertion = BackgroundAssertion()
        assertion.begin(name: "Work")
        await work()
        assertion.end()
    }
}
