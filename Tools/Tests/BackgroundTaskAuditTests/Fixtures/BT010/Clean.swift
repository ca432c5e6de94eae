// swift-format-ignore-file
import BackgroundTaskKit

final class Library {
    // sample: a named scoped task ended by name
    func save() {
        let task = ScopedBackgroundTask("Save library")
        database.save()
        task.end()
    }

    // sample: a safe task kept and ended by the completion
    func upload() {
        let task = SafeBackgroundTask.begin("Upload") { uploader.cancel() }
        uploader.start { task.end() }
    }

    // sample: returned to the caller, explicitly and as a single-expression body
    func beginExport() -> SafeBackgroundTask {
        return SafeBackgroundTask.begin("Export")
    }
    func beginImport() -> SafeBackgroundTask { SafeBackgroundTask.begin("Import") }

    // sample: a task per name, kept in an array by a single-expression closure
    func beginAll(_ names: [String]) -> [SafeBackgroundTask] {
        names.map {
            SafeBackgroundTask.begin($0)
        }
    }

    // sample: passed as an argument and stored in a property
    func track() {
        tracker.keep(SafeBackgroundTask.begin("Track"))
        current = SafeBackgroundTask.begin("Current")
    }
}
