import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT002 and BT010 on the code model.
struct NamingAndDiscardRulesTests {
    @Test func unnamedTasksAndActivitiesInEitherLanguageAreFound() {
        let swift = SwiftFrontEnd.read(
            """
            func a() {
                let x = app.beginBackgroundTask { }
                let y = app.beginBackgroundTask(withName: nil) { }
                let z = app.beginBackgroundTask(withName: "") { }
                let named = app.beginBackgroundTask(withName: "Named") { }
                ProcessInfo.processInfo.performExpiringActivity(withReason: "") { _ in }
            }
            """, path: "A.swift")
        let objectiveC = ObjectiveCFrontEnd.read(
            """
            @implementation B
            - (void)b {
                UIBackgroundTaskIdentifier t = [app beginBackgroundTaskWithExpirationHandler:^{}];
                UIBackgroundTaskIdentifier n = [app beginBackgroundTaskWithName:@"Named" expirationHandler:^{}];
            }
            @end
            """, path: "B.m")
        let found = [swift, objectiveC].flatMap(NamingAndDiscardRules().findings(in:))
        #expect(
            found.map { "\($0.ruleID) \($0.location.path):\($0.location.line)" } == [
                "BT002 A.swift:2", "BT002 A.swift:3", "BT002 A.swift:4", "BT002 A.swift:6", "BT002 B.m:3",
            ])
    }

    @Test func aFaceTaskThrownAwayIsFoundAndOneKeptIsNot() {
        let file = SwiftFrontEnd.read(
            """
            func save() {
                _ = ScopedBackgroundTask("Save")
                SafeBackgroundTask.begin("Upload") { cancel() }
                let kept = SafeBackgroundTask.begin("Kept")
                queue.async { _ = ScopedBackgroundTask("Later") }
                kept.end()
            }
            """, path: "Save.swift")
        let found = NamingAndDiscardRules().findings(in: file)
        #expect(found.map { "\($0.ruleID) \($0.location.line)" } == ["BT010 2", "BT010 3", "BT010 5"])
    }
}
