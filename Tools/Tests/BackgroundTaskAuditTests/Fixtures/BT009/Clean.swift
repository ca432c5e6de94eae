// swift-format-ignore-file
import BackgroundTaskKit
import Foundation

final class WidgetRefresher {
    // sample: dispatches, then waits on a semaphore until the work is done
    func refresh() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh widgets") { expired in
            guard !expired else {
                Widgets.cancel()
                return
            }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                Widgets.reload()
                done.signal()
            }
            done.wait()
        }
    }

    // sample: synchronous work in the block
    func sync() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Sync") { expired in
            if expired {
                Store.cancelSync()
            } else {
                Store.syncSynchronously()
            }
        }
    }

    // sample: a dispatch group waited for
    func compact() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Compact") { expired in
            guard !expired else { return }
            let group = DispatchGroup()
            group.enter()
            DispatchQueue.global().async {
                Store.compact()
                group.leave()
            }
            group.wait()
        }
    }

    // sample: a Task only to cancel on expiry; otherwise the work runs synchronously
    func uploadSynchronously() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload") { expired in
            if expired {
                Task { await Uploads.cancel() }
                return
            }
            Uploads.runSynchronously()
        }
    }

    // sample: the work done synchronously (stopped when told expired), then a UI update posted to the main queue
    func render() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Render", using: { expired in
            guard !expired else { return Thumbnails.cancelRendering() }
            let result = Thumbnails.renderAll()
            DispatchQueue.main.async { self.show(result) }
        })
    }

    // sample: the face with the expiring-activity backend
    func upload() async throws {
        try await withBackgroundTask("Upload", backend: .expiringActivity) {
            try await Uploads.run()
        }
    }

    func show(_ result: Any) {}
}

final class WidgetRefresher {
    let store: WidgetStore
    let disposeBag = DisposeBag()

    init(store: WidgetStore) { self.store = store }

    // sample: the block starts a reactive chain and waits for it to finish before it returns
    func refreshInBackground() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh widgets") { expired in
            if expired { return }
            let done = DispatchSemaphore(value: 0)
            self.store.reloadObservable()
                .subscribeOn(ConcurrentDispatchQueueScheduler(qos: .utility))
                .subscribe(onNext: { widgets in self.store.save(widgets) }, onCompleted: { done.signal() })
                .disposed(by: self.disposeBag)
            done.wait()
        }
    }
}
