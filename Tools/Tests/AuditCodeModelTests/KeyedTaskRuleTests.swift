import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT005 and BT007 for a task kept in a collection under a key and ended by looking it up under that key.
struct KeyedTaskRuleTests {
    private func findings(_ path: String, _ source: String) -> [String] {
        let file = ModelFixture.read(path, source)
        return ModelFixture.summary(
            KeyedTaskRule(index: ProjectIndex(files: [file])).findings(in: file), withPath: false)
    }

    /// An uploader that keeps its tasks by name: `start` and `finish` are the methods' bodies.
    private func uploads(start: String, finish: String) -> [String] {
        findings(
            "Uploads.swift",
            """
            final class Uploads {
                private var tasks: [String: UIBackgroundTaskIdentifier] = [:]
                func start(_ name: String) {
                    \(start)
                }
                func finish(_ name: String) {
                    \(finish)
                }
            }
            """)
    }

    @Test func aTaskKeptUnderAKeyAndEndedByKeyIsSuspectedOfBothOverwriteAndWrongEnd() {
        let start = """
            tasks[name] = UIApplication.shared.beginBackgroundTask(withName: name) { self.finish(name) }
            """
        let finish = """
            if let task = tasks[name] {
                tasks[name] = .invalid
                UIApplication.shared.endBackgroundTask(task)
            }
            """
        #expect(uploads(start: start, finish: finish) == ["BT007 suspected 4", "BT005 suspected 4"])
    }

    @Test func aBeginAfterACheckOfTheSlotIsNotAnOverwriteButItsEndStillLooksUpByKey() {
        let start = """
            guard tasks[name] == nil else { return }
            let task = UIApplication.shared.beginBackgroundTask(withName: name) { self.finish(name) }
            tasks[name] = task
            """
        let finish = """
            guard let task = tasks.removeValue(forKey: name) else { return }
            UIApplication.shared.endBackgroundTask(task)
            """
        #expect(uploads(start: start, finish: finish) == ["BT007 suspected 5"])
    }

    @Test func aTaskKeptInAPlainPropertyOrNeverEndedByKeyIsNotThisRules() {
        #expect(
            findings(
                "Uploads.swift",
                """
                final class Uploads {
                    private var task = UIBackgroundTaskIdentifier.invalid
                    private var names: [String: String] = [:]
                    func start(_ name: String) {
                        task = UIApplication.shared.beginBackgroundTask(withName: name) { self.finish() }
                        names[name] = name
                    }
                    func finish() {
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                }
                """
            ).isEmpty)
    }
}
