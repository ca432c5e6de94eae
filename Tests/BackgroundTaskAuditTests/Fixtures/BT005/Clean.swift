// swift-format-ignore-file
import BackgroundTaskKit
import UIKit

final class DraftSaver {
    var saveTask = UIBackgroundTaskIdentifier.invalid
    var tasks: [UUID: UIBackgroundTaskIdentifier] = [:]
    var current: SafeBackgroundTask?

    // sample: a local, copied to a property afterwards (the "safer failsafe")
    func save() {
        var local = UIBackgroundTaskIdentifier.invalid
        local = UIApplication.shared.beginBackgroundTask(withName: "Save draft") {
            UIApplication.shared.endBackgroundTask(local)
            local = .invalid
        }
        saveTask = local
    }

    // sample: a parameter shadowing a property name
    func autosave(saveTask: inout UIBackgroundTaskIdentifier, handler: @escaping @MainActor @Sendable () -> Void) {
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "Autosave", expirationHandler: handler)
    }

    // sample: the face stored in a property
    func sync() {
        current = SafeBackgroundTask.begin("Sync") { Sync.cancel() }
    }

    // sample: returned to the caller
    func makeTask(_ handler: @escaping @MainActor @Sendable () -> Void) -> UIBackgroundTaskIdentifier {
        return UIApplication.shared.beginBackgroundTask(withName: "Made", expirationHandler: handler)
    }
}
