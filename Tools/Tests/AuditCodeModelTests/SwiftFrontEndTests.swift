import AuditCodeModel
import SwiftAuditFrontEnd
import Testing

/// The Swift front end reads scopes, closures, capture lists, `guard let self`, `defer`, `await` and isolation from
/// the syntax tree.
struct SwiftFrontEndTests {
    private func read(_ source: String) -> CodeFile {
        SwiftFrontEnd.read(source, path: "App/Uploader.swift")
    }

    private func body(_ file: CodeFile, _ name: String) throws -> CodeBody {
        try #require(file.bodies.first { $0.name == name }, "no body named \(name)")
    }

    @Test func aBeginInAMethodIsACallWithItsReceiverLabelsAndTrailingClosure() throws {
        let file = read(
            """
            final class Uploader {
                var task = UIBackgroundTaskIdentifier.invalid
                func start() {
                    task = UIApplication.shared.beginBackgroundTask(withName: "Upload") { [weak self] in
                        guard let self else { return }
                        UIApplication.shared.endBackgroundTask(self.task)
                    }
                }
            }
            """)
        let start = try body(file, "start")
        #expect(start.kind == .method)
        #expect(start.typeName == "Uploader")
        #expect(start.location.line == 3)
        guard case .assign(let target, let value) = try #require(start.steps.first).kind, case .call(let call) = value
        else {
            Issue.record("expected an assignment of a call")
            return
        }
        #expect(target.path == ["task"])
        #expect(call.name == "beginBackgroundTask")
        #expect(call.receiver?.path == ["UIApplication", "shared"])
        #expect(call.arguments.map(\.label) == ["withName", nil])
        #expect(call.location.line == 4)
        let handler = try #require(call.closures.first)
        #expect(handler.captures.map(\.name) == ["self"])
        #expect(handler.captures.first?.strength == .weak)
        guard case .branch(let guardSelf) = try #require(handler.steps.first).kind else {
            Issue.record("expected guard let self")
            return
        }
        #expect(guardSelf.form == .guard)
        guard case .binding(let name, _) = try #require(guardSelf.conditions.first) else {
            Issue.record("expected a binding")
            return
        }
        #expect(name == "self")
        guard case .exit(.return, _) = try #require(guardSelf.arms.first?.first).kind else {
            Issue.record("expected the else to return")
            return
        }
        guard case .evaluate(let end) = try #require(handler.steps.last).kind else {
            Issue.record("expected the end call")
            return
        }
        #expect(end.calls.first?.name == "endBackgroundTask")
        #expect(end.calls.first?.arguments.first?.value.path == ["self", "task"])
        #expect(file.properties.first?.name == "task")
        #expect(file.properties.first?.typeName == "Uploader")
    }

    @Test func deferShadowingAwaitAndBranchesAreSteps() throws {
        let file = read(
            """
            func sync() async throws {
                let task = begin()
                defer { end(task) }
                if ready {
                    let task = other()
                    end(task)
                } else {
                    return
                }
                try await upload()
                switch state {
                case .a: break
                default: throw Failure()
                }
            }
            """)
        let sync = try body(file, "sync")
        #expect(sync.kind == .function)
        #expect(sync.isAsync)
        let kinds = sync.steps.map { step -> String in
            switch step.kind {
            case .declare(let name, _, _): "declare \(name)"
            case .deferred: "defer"
            case .branch(let branch): "\(branch.form) \(branch.arms.count) \(branch.isExhaustive)"
            case .evaluate(.await): "await"
            default: "other"
            }
        }
        // `try await upload()` may throw out of the body: an `if` with one arm that throws comes before it.
        #expect(kinds == ["declare task", "defer", "if 2 true", "if 1 false", "await", "switch 2 true"])
        guard case .branch(let mayThrow) = sync.steps[3].kind, case .exit(.throw, _) = mayThrow.arms[0][0].kind else {
            Issue.record("expected the try to be a path that throws")
            return
        }
        guard case .branch(let ifBranch) = sync.steps[2].kind, case .declare(let inner, _, _) = ifBranch.arms[0][0].kind
        else {
            Issue.record("expected a declaration in the if")
            return
        }
        #expect(inner == "task")
        guard case .exit(.return, _) = ifBranch.arms[1][0].kind else {
            Issue.record("expected the else to return")
            return
        }
    }

    @Test func isolationComesFromAttributesModifiersAndActors() throws {
        let file = read(
            """
            @MainActor final class Model {
                func onMain() {}
                nonisolated func anywhere() {}
            }
            actor Store {
                func write() {}
            }
            struct Plain {
                @MainActor func annotated() { Task { @MainActor in work() } }
                func plain() { queue.async { @Sendable in work() } }
            }
            """)
        #expect(try body(file, "onMain").isolation == .mainActor)
        #expect(try body(file, "anywhere").isolation == .nonisolated)
        #expect(try body(file, "write").isolation == .actor("Store"))
        #expect(try body(file, "annotated").isolation == .mainActor)
        #expect(try body(file, "plain").isolation == .unstated)
        let inner = try body(file, "annotated").steps.first.flatMap { step -> CodeBody? in
            if case .evaluate(.call(let call)) = step.kind { call.closures.first } else { nil }
        }
        #expect(inner?.isolation == .mainActor)
        #expect(file.types.first { $0.name == "Model" }?.isMainActor == true)
    }

    @Test func parametersKnowWhichAreClosuresAndPropertiesKnowTheirKind() throws {
        let file = read(
            """
            class Worker {
                var completion: (() -> Void)?
                static let shared = Worker()
                func run(_ name: String, then done: @escaping (Bool) -> Void) {}
            }
            """)
        let run = try body(file, "run")
        #expect(run.labels == ["_", "then"])
        #expect(run.parameters.map(\.name) == ["name", "done"])
        #expect(run.parameters.map(\.isClosure) == [false, true])
        #expect(file.properties.map(\.name) == ["completion", "shared"])
        #expect(file.properties.map(\.isClosure) == [true, false])
        #expect(file.properties.map(\.isStatic) == [false, true])
    }

    @Test(arguments: ["", "func (", "}}}{{{", "class A { func b() { let c = { [weak self in } }", "\u{FEFF}let x = 1"])
    func unreadableSourceGivesWhatItCanAndNeverTraps(_ source: String) {
        let file = read(source)
        #expect(file.path == "App/Uploader.swift")
        #expect(file.language == .swift)
    }

    @Test func aTryInsideDoCatchOrAsTryQuestionMarkDoesNotLeaveTheBody() throws {
        let file = read(
            """
            func save() throws {
                do {
                    try write()
                } catch {
                    log(error)
                }
                try? write()
                let data = try! load()
                run { try write() }
            }
            """)
        let save = try body(file, "save")
        let leaves = save.steps.contains { step in
            if case .branch(let branch) = step.kind, branch.conditions.isEmpty { return true }
            return false
        }
        #expect(!leaves)
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func linesAndColumnsAreTheSameWhateverEndsALine(_ newline: String) throws {
        let source = ["import UIKit", "", "final class A {", "    func b() {", "        end(1)", "    }", "}", ""]
            .joined(separator: newline)
        let file = SwiftFrontEnd.read(source, path: "A.swift")
        let method = try #require(file.bodies.first { $0.name == "b" })
        #expect(method.location.line == 4)
        #expect(method.location.column == 5)
        #expect(method.location.endLine == 6)
        let call = try #require(method.calls.first { $0.name == "end" })
        #expect(call.location.line == 5)
        #expect(call.location.column == 9)
    }

    @Test func aTypeDeclaredInsideAFunctionHasItsMethodsRead() throws {
        let file = read(
            """
            extension AppDelegate {
                func setUpLogging() {
                    final class Helper {
                        func start(name: String) {
                            tasks[name] = UIApplication.shared.beginBackgroundTask(withName: name) { self.end(name) }
                        }
                        func end(_ name: String) {}
                    }
                    Controller.shared.configure(Helper())
                }
            }
            """)
        let start = try body(file, "start")
        #expect(start.typeName == "Helper")
        #expect(start.makesSystemCall)
        #expect(try body(file, "setUpLogging").typeName == "AppDelegate")
        #expect(file.types.map(\.name) == ["AppDelegate", "Helper"])
    }
}
