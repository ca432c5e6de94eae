import BackgroundTaskKit
import Foundation
import Testing

/// Decides which Swift Testing test a begin belongs to when it fell through to the platform's backend while
/// `withBackgroundTaskBackend` scopes were in force, so that parallel tests never blame each other.
///
/// - A begin made on a test's task (its body and the tasks that inherit its task-locals) belongs to that test: it is
///   reported to the simulators of that test's scopes, whose `expectNoLeaks()` fails; if that test has no scope, it
///   gets a warning naming the line, and no other test is touched.
/// - A begin made where no test is current (a `DispatchQueue`, another thread, `Task.detached`) cannot be attributed:
///   it is recorded as an issue of the run, naming the line and the tests whose scopes were in force, and fails no test.
/// - Scopes entered outside Swift Testing (XCTest, which runs one test at a time) are told of every begin that cannot
///   be attributed, as before.
///
/// Installed when the test kit is loaded (Swift 6.3 compilers and later), and by ``BackgroundTaskSimulatorTrait``.
package final class TestAttribution: FallThroughAttributing {
    package static let shared = TestAttribution()

    private struct State {
        /// The display names of the tests seen, by identifier.
        var names: [String: String] = [:]
        var warned: Set<Warned> = []
        var reported: Set<BackgroundTaskCallSite> = []
        /// The reports of the files tests capture instead of recording, by `fileID`.
        var captures: [String: Int] = [:]
        var captured: [String: [CapturedReport]] = [:]

        /// Captures `report` if its file is being captured; otherwise returns whether it is the first of its kind.
        mutating func isFirst(_ report: CapturedReport) -> Bool {
            if captures[report.callSite.fileID, default: 0] > 0 {
                captured[report.callSite.fileID, default: []].append(report)
                return false
            }
            if let test = report.test { return warned.insert(Warned(test: test, callSite: report.callSite)).inserted }
            return reported.insert(report.callSite).inserted
        }
    }

    private struct Warned: Hashable {
        var test: String
        var callSite: BackgroundTaskCallSite
    }

    private let state = Locked(State())

    /// Makes this the attribution in force (idempotent).
    package static func install() {
        _ = installed
    }

    private static let installed: Void = OverrideScopes.shared.install(shared)

    package func currentTest() -> String? {
        guard let test = Test.current else { return nil }
        let id = String(describing: test.id)
        state.withLock { $0.names[id] = test.name }
        return id
    }

    package func fellThrough(at callSite: BackgroundTaskCallSite, inTest test: String?, scopes: [DefaultBackendScope]) {
        if let test {
            let own = scopes.filter { $0.test == test }
            for scope in own { scope.receiver?.defaultBackendFellThrough(at: callSite) }
            if own.isEmpty { warn(test, at: callSite, others: scopes) }
            return
        }
        for scope in scopes where scope.test == nil { scope.receiver?.defaultBackendFellThrough(at: callSite) }
        let owners = scopes.filter { $0.test != nil }
        if !owners.isEmpty { reportUnattributed(callSite, owners: owners) }
    }

    /// A report captured instead of recorded as an issue.
    package struct CapturedReport: Equatable, Sendable {
        /// Where the task began.
        package var callSite: BackgroundTaskCallSite
        /// The test it was attributed to (a warning to that test); `nil` when it could not be attributed (an issue of
        /// the run).
        package var test: String?
    }

    /// Runs `body`, capturing (instead of recording as issues) the reports of begins made in `fileID` meanwhile, and
    /// returns them beside its result: for the package's own tests of this behaviour.
    package func capturing<Result>(
        fileID: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> (result: Result, reports: [CapturedReport]) {
        state.withLock { $0.captures[fileID, default: 0] += 1 }
        defer { stopCapturing(fileID) }
        let result = try await body()
        return (result, state.withLock { $0.captured[fileID] ?? [] })
    }

    /// Synchronous ``capturing(fileID:isolation:_:)``.
    package func capturing<Result>(
        fileID: String,
        _ body: () throws -> Result
    ) rethrows -> (result: Result, reports: [CapturedReport]) {
        state.withLock { $0.captures[fileID, default: 0] += 1 }
        defer { stopCapturing(fileID) }
        let result = try body()
        return (result, state.withLock { $0.captured[fileID] ?? [] })
    }

    private func stopCapturing(_ fileID: String) {
        state.withLock { state in
            state.captures[fileID, default: 1] -= 1
            if state.captures[fileID] == 0 { state.captured[fileID] = nil }
        }
    }

    private func warn(_ test: String, at callSite: BackgroundTaskCallSite, others: [DefaultBackendScope]) {
        guard state.withLock({ $0.isFirst(CapturedReport(callSite: callSite, test: test)) }) else { return }
        let message =
            "A task begun at \(callSite) in this test used the platform's backend: no simulator was set for it. "
            + "It was not blamed on \(names(of: others)), whose withBackgroundTaskBackend was in force at the same "
            + "time. To test it, use @Test(.backgroundTaskSimulator) or withBackgroundTaskBackend, or pass the backend."
        #if compiler(>=6.3)
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: callSite.sourceLocation)
        #else
            FileHandle.standardError.write(Data("BackgroundTaskKit: warning: \(message)\n".utf8))
        #endif
    }

    private func reportUnattributed(_ callSite: BackgroundTaskCallSite, owners: [DefaultBackendScope]) {
        guard state.withLock({ $0.isFirst(CapturedReport(callSite: callSite, test: nil)) }) else { return }
        let names = names(of: owners)
        Issue.record(
            Comment(
                rawValue:
                    "A task begun at \(callSite) used the platform's backend while withBackgroundTaskBackend was in "
                    + "force in \(names). It began outside any test's task (DispatchQueue work, another thread or "
                    + "Task.detached), so which test it belongs to cannot be known, and no test was failed for it. A "
                    + "task-local default does not reach such code: if it is a test's, use "
                    + "withProcessWideBackgroundTaskBackend in a .serialized suite, or pass the backend."),
            sourceLocation: callSite.sourceLocation)
    }

    /// The tests that entered `scopes`, by name, for messages.
    private func names(of scopes: [DefaultBackendScope]) -> String {
        let known = state.withLock { $0.names }
        let names = Set(scopes.map { scope in scope.test.map { "\"\(known[$0] ?? $0)\"" } ?? "code outside a test" })
        return names.sorted().joined(separator: ", ")
    }
}

extension BackgroundTaskCallSite {
    /// Where Swift Testing points an issue about this call site (the column is not known).
    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: fileID, line: max(line, 1), column: 1)
    }
}
