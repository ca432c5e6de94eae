import AuditCodeModel
import SwiftAuditFrontEnd
import Testing

/// The system's background-time calls are recognized by name and labels, and look-alikes are not.
struct SystemCallTests {
    /// The system calls of a one-line Swift function body.
    private func recognized(_ statement: String) -> [SystemCall] {
        let file = SwiftFrontEnd.read("func f() {\n\(statement)\n}\n", path: "F.swift")
        return file.bodies.flatMap(\.steps).flatMap { step -> [CodeCall] in
            switch step.kind {
            case .evaluate(let expression): expression.calls
            case .assign(_, let value): value.calls
            case .declare(_, _, let value): value?.calls ?? []
            default: []
            }
        }.compactMap(SystemCall.init)
    }

    @Test(arguments: [
        "task = app.beginBackgroundTask(withName: \"Upload\") { end() }",
        "task = app.beginBackgroundTask(withName: \"Upload\", expirationHandler: handler)",
        "task = UIApplication.shared.beginBackgroundTask { end() }",
        "task = application.beginBackgroundTask(expirationHandler: nil)",
        "let task = beginBackgroundTask(withName: nil, expirationHandler: nil)",
    ])
    func swiftBeginsAreBegins(_ statement: String) {
        let calls = recognized(statement)
        #expect(calls.count == 1)
        guard case .begin = calls.first else {
            Issue.record("\(statement) is not a begin")
            return
        }
    }

    @Test func theNameAndTheHandlerAreTheRightArguments() throws {
        guard
            case .begin(let name, let handler) = try #require(
                recognized("app.beginBackgroundTask(withName: \"A\") {}").first)
        else {
            Issue.record("not a begin")
            return
        }
        guard case .literal(.string(isEmpty: false)) = name, case .closure = handler else {
            Issue.record("name \(String(describing: name)), handler \(String(describing: handler))")
            return
        }
    }

    @Test(arguments: [
        "backend.beginBackgroundTask(named: \"A\", expirationHandler: nil)",
        "provider.beginBackgroundTask(withName: \"A\", expirationHandler: {}, queue: q)",
        "manager.register(task)",
        "app.endBackgroundTask(named: \"A\")",
        "helper.endBackgroundTask(taskName: name)",
    ])
    func lookAlikesAreNotSystemCalls(_ statement: String) {
        #expect(recognized(statement).isEmpty, "\(statement)")
    }

    @Test func endsExpiringActivitiesRegistrationsAndCompletionsAreRecognized() {
        let kinds = [
            "app.endBackgroundTask(task)",
            "ProcessInfo.processInfo.performExpiringActivity(withReason: \"Save\") { expired in }",
            "BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in }",
            "task.setTaskCompleted(success: true)",
        ].map { statement -> String in
            switch recognized(statement).first {
            case .end: "end"
            case .expiringActivity: "expiring"
            case .register: "register"
            case .setTaskCompleted: "completed"
            default: "none"
            }
        }
        #expect(kinds == ["end", "expiring", "register", "completed"])
    }
}
