import Testing

@testable import BackgroundTaskAudit

/// The byte scan that picks the files the code model reads besides those that name the APIs.
struct DeclaredNamesTests {
    private func declares(_ names: Set<String>, _ source: String) -> Bool {
        DeclaredNames.declaresAny(of: names, in: Array(source.utf8))
    }

    @Test func swiftFunctionsTypesAndExtensionsAreDeclarations() {
        #expect(declares(["cleanUp"], "extension Export {\n    func cleanUp() {}\n}"))
        #expect(declares(["Export"], "extension Export {\n}"))
        #expect(declares(["Base"], "open class Base: NSObject {}"))
        #expect(declares(["Worker"], "actor Worker {}"))
    }

    @Test func objectiveCMethodsAndImplementationsAreDeclarations() {
        #expect(declares(["finishTask"], "@implementation Uploader\n- (void)finishTask {\n}\n@end"))
        #expect(declares(["Uploader"], "@implementation Uploader\n@end"))
        #expect(declares(["Uploader"], "@interface Uploader : NSObject\n@end"))
    }

    @Test func aCallOrAMentionIsNotADeclaration() {
        #expect(!declares(["cleanUp"], "func run() {\n    self.cleanUp()\n    cleanUp()\n}"))
        #expect(!declares(["finishTask"], "- (void)run {\n    [self finishTask];\n}"))
        #expect(!declares(["Export"], "let export = Export()"))
        #expect(!declares([], "func cleanUp() {}"))
    }

    @Test func onlyCodeThatNamesASystemCallMakesAFileTheCodeModelStartsFrom() {
        func names(_ source: String, _ language: SourceLanguage = .swift) -> Bool {
            CallSiteFinder.namesSystemCall(SourceSyntax(bytes: Array(source.utf8), language: language))
        }
        #expect(names("let t = UIApplication.shared.beginBackgroundTask { }"))
        #expect(names("task.setTaskCompleted(success: true)"))
        #expect(names("BGTaskScheduler.shared.register(\n    forTaskWithIdentifier: id, using: nil) { _ in }"))
        #expect(names("[app endBackgroundTask:task];", .objectiveC))
        #expect(
            names("[[NSProcessInfo processInfo] performExpiringActivityWithReason:@\"x\" usingBlock:b];", .objectiveC))
        // A type name, a comment or a string literal that names the APIs is no call.
        #expect(!names("var task = UIBackgroundTaskIdentifier.invalid"))
        #expect(!names("/* endBackgroundTask(x) */ let raw = #\"beginBackgroundTask\"#"))
        #expect(!names("// performExpiringActivity\nlet manager = BackgroundTaskManager()"))
        // The byte scan that stands in for a file the token pass did not lex is the wider guess.
        #expect(CallSiteFinder.mayMakeSystemCall(Array("/* endBackgroundTask(x) */".utf8)))
        #expect(!CallSiteFinder.mayMakeSystemCall(Array("var task = UIBackgroundTaskIdentifier.invalid".utf8)))
    }
}
