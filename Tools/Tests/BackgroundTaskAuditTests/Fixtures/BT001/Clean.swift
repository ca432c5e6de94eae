// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class PhotoUploader {
    // sample: the package's faces are not raw calls
    func upload() async throws {
        let task = SafeBackgroundTask.begin("Upload photos") { Uploader.cancel() }
        Uploader.start { _ in task.end() }
        let scoped = ScopedBackgroundTask("Save")
        scoped.end()
        try await withBackgroundTask("Refresh") { try await Feed.refresh() }
        let managed = try manager.beginTask("Write cache")
        managed.end()
    }

    // sample: calls inside comments and string literals of every kind
    func documentation() -> [String] {
        // UIApplication.shared.beginBackgroundTask { }
        /* outer /* nested */ UIApplication.shared.beginBackgroundTask(withName: nil) */
        let multiline = """
            let id = UIApplication.shared.beginBackgroundTask(withName: "x") { }
            """
        let raw = #"UIApplication.shared.beginBackgroundTask(expirationHandler: nil) "quoted""#
        let interpolated = "\(multiline.count) beginBackgroundTask() \("performExpiringActivity(withReason: \"\")")"
        let regex = #/beginBackgroundTask\(\)/#
        return [multiline, raw, interpolated, "\(regex)"]
    }

    // sample: a reference to the method is not a call
    func reference() -> Selector {
        #selector(UIApplication.beginBackgroundTask(expirationHandler:))
    }

    // sample: another API with the same base name but different labels
    func viaBackend(_ backend: any BackgroundTaskBackend) {
        let id = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil)
        if let id { backend.endBackgroundTask(id) }
    }

    // sample: a suppressed call
    func legacy() {
        var task = UIBackgroundTaskIdentifier.invalid
        // bgtask:ignore BT001
        task = UIApplication.shared.beginBackgroundTask(withName: "Legacy") {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
        Work.finish { UIApplication.shared.endBackgroundTask(task) }
    }
}

// sample: a wrapper implementation named like the API it wraps
struct ApplicationWrapper {
    let application: UIApplication

    func beginBackgroundTask(
        withName name: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> UIBackgroundTaskIdentifier {
        application.beginBackgroundTask(withName: name, expirationHandler: handler)
    }
}

enum ActivityRunner {
    // sample: an expiring activity whose block is the caller's, passed on as is
    static func perform(reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
    }

    // sample: a closure passed as the wrapper's beginBackgroundTask: argument
    static func run(_ name: String) {
        BackgroundTaskRunner.execute(
            withName: name,
            beginBackgroundTask: { name, cleanup in
                var task = UIBackgroundTaskIdentifier.invalid
                task = UIApplication.shared.beginBackgroundTask(withName: name) {
                    cleanup()
                    UIApplication.shared.endBackgroundTask(task)
                    task = .invalid
                }
                return task
            }
        )
    }
}

final class AssertionProvider {
    func beginBackgroundTask(withName name: String, expirationHandler handler: @escaping () -> Void)
        -> UIBackgroundTaskIdentifier
    {
        UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: handler)
    }

    func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        UIApplication.shared.endBackgroundTask(identifier)
    }
}

final class ExportAssertion {
    private static let provider = AssertionProvider()
    private var taskID = UIBackgroundTaskIdentifier.invalid

    // sample: the code base's own method with UIKit's name, called on its provider, is the wrapper, not a raw call
    init(name: String) {
        taskID = Self.provider.beginBackgroundTask(withName: name) {
            Self.provider.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
    }

    func finish() {
        Self.provider.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

final class BackgroundTaskController {
    private var handlers: [UIBackgroundTaskIdentifier: () -> Void] = [:]

    // sample: a wrapper under another name that takes the caller's expiration handler and runs it later, from a table
    func start(task name: String, expirationHandler: @escaping () -> Void, work: (@escaping () -> Void) -> Void) {
        var id = UIBackgroundTaskIdentifier.invalid
        id = UIApplication.shared.beginBackgroundTask(withName: name) {
            self.expire(id)
        }
        handlers[id] = expirationHandler
        work { self.expire(id) }
    }

    private func expire(_ id: UIBackgroundTaskIdentifier) {
        handlers.removeValue(forKey: id)?()
        UIApplication.shared.endBackgroundTask(id)
    }
}
