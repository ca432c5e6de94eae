// swift-format-ignore-file
import UIKit

enum ExportError: Error { case empty }

final class Exporter {
    let app = UIApplication.shared

    // sample: guard … else { return } between begin and end
    func export(_ items: [Item]) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        guard !items.isEmpty else { return }  // expect: BT008
        Archive.write(items)
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: an uncaught try between begin and end
    func save(_ data: Data) throws {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Save") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        try data.write(to: Archive.url)  // expect: BT008
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: a throw between begin and end
    func validate(_ items: [Item]) throws {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Validate") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        if items.isEmpty {
            throw ExportError.empty  // expect: BT008
        }
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: the completion returns early before its end
    func upload() {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        Uploads.start { result in
            guard case .success = result else { return }  // expect: BT008
            self.app.endBackgroundTask(task)
            task = .invalid
        }
    }
}

final class BackgroundFlusher {
    let app = UIApplication.shared
    var flushTask = UIBackgroundTaskIdentifier.invalid

    // sample: only the expiration handler ends the stored task; the flush's completion never does
    func applicationDidEnterBackground() {
        guard flushTask == .invalid else { return }
        flushTask = app.beginBackgroundTask(withName: "Flush") {  // expect: BT008
            self.app.endBackgroundTask(self.flushTask)
            self.flushTask = .invalid
        }
        Events.flush()
    }
}

final class ConnectionOperation {
    let app = UIApplication.shared
    var connectionTask = UIBackgroundTaskIdentifier.invalid

    // sample: besides the handler, the task is ended only in deinit
    func continueInBackground() {
        guard connectionTask == .invalid else { return }
        connectionTask = app.beginBackgroundTask(withName: "Connection") { [self] in  // expect: BT008
            cancel()
        }
    }

    private func cancel() {
        endConnectionTask()
    }

    private func endConnectionTask() {
        app.endBackgroundTask(connectionTask)
        connectionTask = .invalid
    }

    deinit {
        endConnectionTask()
    }
}

final class SessionFlusher {
    let app = UIApplication.shared
    var sessionTask = UIBackgroundTaskIdentifier.invalid

    // sample: ended only by the handler and on the return to the foreground, never when the flush ends
    func applicationDidEnterBackground() {
        guard sessionTask == .invalid else { return }
        sessionTask = app.beginBackgroundTask(withName: "Flush session") {  // expect: BT008
            self.endSessionTask()
        }
        Session.flush()
    }

    func applicationWillEnterForeground() {
        endSessionTask()
    }

    private func endSessionTask() {
        app.endBackgroundTask(sessionTask)
        sessionTask = .invalid
    }
}

@MainActor
final class SessionCloser {
    private var closeTask = UIBackgroundTaskIdentifier.invalid

    private func startCloseTask() {
        guard closeTask == .invalid else { return }
        closeTask = UIApplication.shared.beginBackgroundTask(withName: "Close session") {
            self.endCloseTask()
        }
    }

    private func endCloseTask() {
        UIApplication.shared.endBackgroundTask(closeTask)
        closeTask = .invalid
    }

    // sample: a begin helper and an end helper with a throwing call between them, caught by a catch that does not end
    func enterBackground() async {
        do {
            startCloseTask()
            try await Session.close()  // expect: BT008
            await Session.drain()
            endCloseTask()
        } catch {
            Log.error(error)
        }
    }

    // sample: a begin helper, then a guard that returns before the end helper
    func flushAndClose(pending: Int) async {
        startCloseTask()
        guard pending > 0 else { return }  // expect: BT008
        await Session.flush()
        endCloseTask()
    }
}

final class DiskWriter {
    // sample: a try inside do between a begin and its end in one function, and the catch does not end
    func write(_ data: Data, to url: URL) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Write") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        do {
            try data.write(to: url)  // expect: BT008
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        } catch {
            Log.error(error)
        }
    }
}

enum ReplySender {
    // sample: a completion that ends the task in one case of a switch, and only shows an alert in the other
    static func sendReply(_ text: String, api: API) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Reply") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        api.post(text) { result in
            switch result {
            case .success:
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            case .failure:  // expect: BT008
                Alert.show("Could not send")
            }
        }
    }

    // sample: the completion that ends the task is passed to an optional-chained call
    static func sendReaction(_ text: String, session: Session) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Reaction") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        session.currentAPI?.post(text) { _ in  // expect: BT008
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: an if whose else branch neither ends the task nor passes it on
    static func upload(_ data: Data) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Uploader.send(data) { ok in
            if ok {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            } else {  // expect: BT008
                Uploader.scheduleRetry(data)
            }
        }
    }
}

final class ContactsSync {
    var task = UIBackgroundTaskIdentifier.invalid

    // sample: a local that shadows the property is begun, and only its handler ends it (the completion ends the
    // property)
    func sync(client: ContactsClient) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Sync contacts") {  // expect: BT008
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        client.sync { _ in
            UIApplication.shared.endBackgroundTask(self.task)
            self.task = .invalid
        }
    }
}

final class LibraryExporter {
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: the completion ends through a helper, but its error branch returns before calling it
    func save(_ items: [Item], archive: Archive) {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Save library") { [self] in
            endTask()
        }
        archive.save(items) { [self] error in
            DispatchQueue.main.async { [self] in
                if let error {
                    Log.error(error)
                    return  // expect: BT008
                }
                Library.publish(items)
                endTask()
            }
        }
    }

    private func endTask() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

enum FeedSaver {
    // sample: the `else` branch ends the task and the `if` branch does not
    static func save(_ feed: Feed) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Save feed") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Store.save(feed) { failed in
            if failed {  // expect: BT008
                Store.scheduleRetry(feed)
            } else {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
    }
}
