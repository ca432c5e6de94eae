// swift-format-ignore-file
import UIKit

final class DraftSaver {
    var saveTask = UIBackgroundTaskIdentifier.invalid
    var backgroundTask: UIBackgroundTaskIdentifier = .invalid
    let session = Session()

    // sample: self.property
    func save() {
        self.saveTask = UIApplication.shared.beginBackgroundTask(withName: "Save draft") {  // expect: BT005 BT008
            UIApplication.shared.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
    }

    // sample: a local, copied to a property afterwards, where the next call overwrites it
    func saveCopy() {
        var local = UIBackgroundTaskIdentifier.invalid
        local = UIApplication.shared.beginBackgroundTask(withName: "Save draft") {  // expect: BT005
            UIApplication.shared.endBackgroundTask(local)
            local = .invalid
        }
        saveTask = local
    }

    // sample: a property without self.
    func autosave() {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "Autosave") {  // expect: BT005 BT008
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }
    }

    // sample: another object's property
    func sync() {
        session.task = UIApplication.shared.beginBackgroundTask(withName: "Sync") {  // expect: BT005 BT008
            UIApplication.shared.endBackgroundTask(self.session.task)
            self.session.task = .invalid
        }
    }
}

// sample: a global
var sharedUploadTask = UIBackgroundTaskIdentifier.invalid

func uploadEverything() {
    sharedUploadTask = UIApplication.shared.beginBackgroundTask(withName: "Upload everything") {  // expect: BT005 BT008
        UIApplication.shared.endBackgroundTask(sharedUploadTask)
        sharedUploadTask = .invalid
    }
}

@MainActor
final class FeedSyncer {
    var syncTask = UIBackgroundTaskIdentifier.invalid
    var isSyncing = false

    // sample: a flag that is tested but set only when the work has finished: a second run passes the check
    func syncFeeds() {
        guard !isSyncing else { return }
        syncTask = UIApplication.shared.beginBackgroundTask(withName: "Sync feeds") {  // expect: BT005
            UIApplication.shared.endBackgroundTask(self.syncTask)
            self.syncTask = .invalid
        }
        Feeds.sync {
            self.isSyncing = true
            UIApplication.shared.endBackgroundTask(self.syncTask)
            self.syncTask = .invalid
            self.isSyncing = false
        }
    }
}

final class SessionTracker {
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: begun from a notification's case that is not entering the background: nothing ends it first
    @objc private func applicationStateChanged(_ notification: Notification) {
        switch notification.name {
        case UIApplication.didReceiveMemoryWarningNotification:
            beginCleanup()
        default:
            return
        }
    }

    private func beginCleanup() {
        task = UIApplication.shared.beginBackgroundTask(withName: "Cleanup") {  // expect: BT005
            self.endCleanup()
        }
        Cache.trim { self.endCleanup() }
    }

    private func endCleanup() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

private final class SharedAssertion {
    static let shared = SharedAssertion()
    private var id = UIBackgroundTaskIdentifier.invalid

    // sample: a private type's begin called on its shared instance, not on an object made for the call
    func begin(name: String) {
        id = UIApplication.shared.beginBackgroundTask(withName: name) {  // expect: BT005
            self.end()
        }
    }

    func end() {
        guard id != .invalid else { return }
        UIApplication.shared.endBackgroundTask(id)
        id = .invalid
    }
}

struct SharedAssertionUser {
    func upload(_ work: () async -> Void) async {
        let assertion = SharedAssertion.shared
        assertion.begin(name: "Upload")
        await work()
        assertion.end()
    }
}
