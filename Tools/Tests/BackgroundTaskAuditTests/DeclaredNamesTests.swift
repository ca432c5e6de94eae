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
}
