import AuditCodeModel
import SwiftAuditFrontEnd
import Testing

/// The index finds a method through the type, its extensions and its superclasses, in any file.
struct ProjectIndexTests {
    private let index = ProjectIndex(files: [
        SwiftFrontEnd.read(
            """
            @MainActor class BaseOperation {
                func finishTask() { UIApplication.shared.endBackgroundTask(task) }
            }
            """, path: "Base.swift"),
        SwiftFrontEnd.read(
            """
            final class UploadOperation: BaseOperation, Cancellable {
                func start() { finishTask() }
            }
            extension UploadOperation {
                func cancelUpload() {}
            }
            func finishTask() {}
            """, path: "Upload.swift"),
    ])

    @Test func aMethodIsFoundInTheSuperclassDeclaredInAnotherFile() {
        let found = index.methods(named: "finishTask", in: "UploadOperation")
        #expect(found.map(\.location.path) == ["Base.swift"])
        #expect(found.first?.typeName == "BaseOperation")
    }

    @Test func aMethodOfAnExtensionIsTheType() {
        #expect(index.methods(named: "cancelUpload", in: "UploadOperation").map(\.location.path) == ["Upload.swift"])
        #expect(index.methods(named: "missing", in: "UploadOperation").isEmpty)
    }

    @Test func bodiesByNameIncludeFreeFunctionsAndMethods() {
        #expect(Set(index.bodies(named: "finishTask").map(\.kind)) == [.function, .method])
        #expect(index.bodies(named: "start", labels: []).count == 1)
        #expect(index.bodies(named: "start", labels: ["_"]).isEmpty)
    }

    @Test func superclassesAndMainActorAreInherited() {
        #expect(index.superclass(of: "UploadOperation") == "BaseOperation")
        #expect(index.superclass(of: "BaseOperation") == nil)
        #expect(index.isMainActor("UploadOperation"))
    }

    @Test func aClassThatInheritsFromItselfDoesNotLoop() {
        let looping = ProjectIndex(files: [
            SwiftFrontEnd.read("class A: B {}\nclass B: A {}\n", path: "Loop.swift")
        ])
        #expect(looping.methods(named: "x", in: "A").isEmpty)
        #expect(!looping.isMainActor("A"))
    }
}
