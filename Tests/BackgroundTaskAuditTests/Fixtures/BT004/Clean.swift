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
    }

    // sample: ends through a same-file helper, strongly
    func prefetch() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Prefetch") {
            self.finish(task)
        }
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
    }

    // sample: the package's face with [weak self] in its cleanup
    func download() {
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
    }

    func finish(_ task: UIBackgroundTaskIdentifier) {
        app.endBackgroundTask(task)
    }

    func cancelUpload() {}
    func showPausedBanner() {}
}
