// swift-format-ignore-file
import BackgroundTaskKit

final class Library {
    // sample: the fix-it of "initialization of immutable value 'task' was never used"
    func save() {
        _ = ScopedBackgroundTask("Save library")  // expect: BT010
        database.save()
    }

    // sample: a SafeBackgroundTask begun and thrown away
    func upload() {
        let _ = SafeBackgroundTask.begin("Upload") { uploader.cancel() }  // expect: BT010
        uploader.start()
    }

    // sample: a scoped task as a statement of its own (the compiler's "result unused" warning)
    func compact() {
        ScopedBackgroundTask("Compact")  // expect: BT010
        database.compact()
    }

    // sample: with try, after another statement on the line before
    func export() throws {
        prepare()
        _ = try SafeBackgroundTask.begin("Export", onExpiration: { exporter.cancel() })  // expect: BT010
        try exporter.run()
    }

    // sample: inside a branch
    func refresh(force: Bool) {
        if force { _ = ScopedBackgroundTask("Refresh") }  // expect: BT010
        feed.reload()
    }
}
