// swift-format-ignore-file
import Foundation

final class WidgetRefresher {
    let queue = OperationQueue()

    // sample: the work is dispatched to a global queue
    func refresh() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh widgets") { expired in  // expect: BT009
            guard !expired else { return }
            DispatchQueue.global().async {
                Widgets.reload()
            }
        }
    }

    // sample: the work runs in a Task
    func sync() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Sync") { expired in  // expect: BT009
            if expired { return }
            Task {
                await Store.sync()
            }
        }
    }

    // sample: the work is queued on an operation queue
    func compact() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Compact") { expired in  // expect: BT009
            guard !expired else { return }
            self.queue.addOperation {
                Store.compact()
            }
        }
    }

    // sample: cleanup on expiry, then the work posted to the main queue with nothing done first
    func reload() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Reload") { expired in  // expect: BT009
            if expired {
                Widgets.cancel()
                return
            }
            DispatchQueue.main.async {
                Widgets.reload()
            }
        }
    }

    // sample: a URL session task with a completion handler, block passed with using:
    func upload(_ request: URLRequest) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload", using: { expired in  // expect: BT009
            guard !expired else { return }
            URLSession.shared.dataTask(with: request) { _, _, _ in
                Log.note("uploaded")
            }.resume()
        })
    }
}

enum WatchUploader {
    // sample: waits for the work with a timeout, then returns
    static func upload(done: DispatchSemaphore) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload") { expired in  // expect: BT009
            guard !expired else { return }
            _ = done.wait(timeout: .now() + 30)
        }
    }
}

enum PlayIntent {
    // sample: a quick lookup in the block, then the real work posted to the main queue, and the block returns
    static func play(named name: String, player: Player, library: Library) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Play") { expired in  // expect: BT009
            guard !expired, let playlist = library.playlist(named: name) else { return }
            DispatchQueue.main.async {
                player.load(playlist.items())
                player.applySettings(Settings.load())
                player.scheduleSleepTimer(Settings.sleepTimer())
                player.play()
            }
        }
    }
}

final class WidgetRefresher {
    let store: WidgetStore
    let disposeBag = DisposeBag()

    init(store: WidgetStore) { self.store = store }

    // sample: the block starts a reactive chain on another scheduler and returns
    func refreshInBackground() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh widgets") { expired in  // expect: BT009
            if expired { return }
            self.store.reloadObservable()
                .subscribeOn(ConcurrentDispatchQueueScheduler(qos: .utility))
                .subscribe(onNext: { widgets in self.store.save(widgets) })
                .disposed(by: self.disposeBag)
        }
    }
}
