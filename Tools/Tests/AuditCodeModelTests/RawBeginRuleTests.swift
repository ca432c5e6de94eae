import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd
import Testing

/// BT001 on the code model: every raw call is reported but a wrapper's, which passes on its caller's handler.
struct RawBeginRuleTests {
    @Test func aRawCallIsReportedAndAWrapperThatPassesItsCallersHandlerOnIsNot() {
        let swift = SwiftFrontEnd.read(
            """
            func upload() {
                let task = UIApplication.shared.beginBackgroundTask(withName: "Upload") { cancel() }
            }
            struct Wrapper {
                func begin(_ name: String, expirationHandler: @escaping () -> Void) -> UIBackgroundTaskIdentifier {
                    UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: expirationHandler)
                }
                func beginLogged(_ name: String, handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
                    UIApplication.shared.beginBackgroundTask(withName: name) { log(); handler?() }
                }
            }
            """, path: "A.swift")
        let objectiveC = ObjectiveCFrontEnd.read(
            """
            @implementation Shim
            - (UIBackgroundTaskIdentifier)beginWithName:(NSString *)name handler:(void (^)(void))handler {
                return [app beginBackgroundTaskWithName:name expirationHandler:handler];
            }
            - (void)save {
                self.task = [app beginBackgroundTaskWithExpirationHandler:^{ [self stop]; }];
            }
            @end
            """, path: "B.m")
        let found = [swift, objectiveC].flatMap(RawBeginRule().findings(in:))
        #expect(
            found.map { "\($0.ruleID) \($0.location.path):\($0.location.line)" } == ["BT001 A.swift:2", "BT001 B.m:6"])
    }
}
