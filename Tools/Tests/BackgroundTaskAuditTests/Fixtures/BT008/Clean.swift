// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class Exporter {
    let app = UIApplication.shared

    // sample: the early exit ends the task first
    func export(_ items: [Item]) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Export") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        guard !items.isEmpty else {
            app.endBackgroundTask(task)
            task = .invalid
            return
        }
        Archive.write(items)
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: a defer ends on every path
    func save(_ data: Data) throws {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Save") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        defer {
            app.endBackgroundTask(task)
            task = .invalid
        }
        guard !data.isEmpty else { return }
        try data.write(to: Archive.url)
    }

    // sample: try? and a caught try
    func validate(_ items: [Item]) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Validate") {
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        try? Archive.check(items)
        do {
            try Archive.write(items)
        } catch {
            Log.error(error)
        }
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: returns inside unrelated closures and inside the handler
    func upload(_ items: [Item]) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = app.beginBackgroundTask(withName: "Upload") {
            guard task != .invalid else { return }
            self.app.endBackgroundTask(task)
            task = .invalid
        }
        let names = items.compactMap { item -> String? in
            guard item.isValid else { return nil }
            return item.name
        }
        Uploads.start(names)
        app.endBackgroundTask(task)
        task = .invalid
    }

    // sample: the face ends on every path by itself
    func compact() throws {
        try withBackgroundTask("Compact") {
            guard Store.needsCompaction else { return }
            try Store.compact()
        }
    }
}

final class LogShipper {
    // sample: a local handed on to the work, which ends it
    func ship(_ logs: [Log]) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Ship logs") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Shipper.send(logs, endingTask: task)
    }
}

final class EventUploader {
    var uploadTask = UIBackgroundTaskIdentifier.invalid
    var pending: [Event] = []

    // sample: the work function ends the task on its early return too
    func applicationDidEnterBackground() {
        guard uploadTask == .invalid else { return }
        uploadTask = UIApplication.shared.beginBackgroundTask(withName: "Upload events") {
            self.endUploadTask()
        }
        uploadPending()
    }

    func uploadPending() {
        guard !pending.isEmpty else {
            endUploadTask()
            return
        }
        post(pending)
    }

    func post(_ events: [Event]) {
        Session.post(events) { self.endUploadTask() }
    }

    func endUploadTask() {
        guard uploadTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(uploadTask)
        uploadTask = .invalid
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

    // sample: a begin helper and an end helper around a throwing call whose catch ends the task too
    func enterBackground() async {
        do {
            startCloseTask()
            try await Session.close()
            endCloseTask()
        } catch {
            endCloseTask()
        }
    }

    // sample: a begin helper on one branch that returns on purpose: the server's stop ends the task later
    func startServer() -> Bool {
        if Server.start() {
            startCloseTask()
            return true
        }
        endCloseTask()
        return false
    }
}

final class DiskWriter {
    // sample: a try inside do whose catch is followed by the end: the error is caught and the end still runs
    func write(_ data: Data, to url: URL) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Write") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        do {
            try data.write(to: url)
        } catch {
            Log.error(error)
        }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}

enum ReplySender {
    // sample: a completion that ends the task in every case of its switch
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
            case .failure:
                Alert.show("Could not send")
                UIApplication.shared.endBackgroundTask(task)
            }
            task = .invalid
        }
    }

    // sample: branches in the completion, then an end after them that covers both
    static func upload(_ data: Data) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Uploader.send(data) { ok in
            if ok {
                Log.info("sent")
            } else {
                Uploader.scheduleRetry(data)
            }
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }

    // sample: the receiver is unwrapped first, and the nil case ends the task
    static func sendReaction(_ text: String, session: Session) {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Reaction") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        guard let api = session.currentAPI else {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
            return
        }
        api.post(text) { _ in
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}

enum EventsFlush {
    // sample: the function returns the closure that ends the task: the `return` hands the end to the caller
    static func beginFlush() -> () -> Void {
        var task = UIBackgroundTaskIdentifier.invalid
        task = UIApplication.shared.beginBackgroundTask(withName: "Flush") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        return {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}

final class ContactsSync {
    var task = UIBackgroundTaskIdentifier.invalid

    // sample: the property is begun, and the completion ends a local copy of it under the same name
    func sync(client: ContactsClient) {
        guard self.task == .invalid else { return }
        self.task = UIApplication.shared.beginBackgroundTask(withName: "Sync contacts") {
            UIApplication.shared.endBackgroundTask(self.task)
            self.task = .invalid
        }
        client.sync { _ in
            let task = self.task
            self.task = .invalid
            UIApplication.shared.endBackgroundTask(task)
        }
    }
}

final class LibraryExporter {
    private var task = UIBackgroundTaskIdentifier.invalid

    // sample: every path ends through the helper: a defer, and the error branch calls it before returning
    func exportNow(_ items: [Item], archive: Archive) throws {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Export library") { [self] in
            endTask()
        }
        defer { endTask() }
        guard !items.isEmpty else { return }
        try archive.write(items)
    }

    func save(_ items: [Item], archive: Archive) {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Save library") { [self] in
            endTask()
        }
        archive.save(items) { [self] error in
            if let error {
                Log.error(error)
                endTask()
                return
            }
            Library.publish(items)
            endTask()
        }
    }

    private func endTask() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
