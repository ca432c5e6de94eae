import BackgroundTaskKit
import Testing

/// Where the test kit records the issues it finds (the trait's leak check, `UnimplementedBackend`): as Swift Testing
/// issues at the test's own source location, or, inside ``capturing(_:)``, into a list the package's own tests assert
/// on, so that a test of a failure passes quietly instead of printing a known issue.
package enum TestKitIssueRecording {
    /// One issue the test kit recorded.
    package struct Recorded: Sendable {
        /// The error's description or the issue's message.
        package var message: String
        /// The comment the issue carries, if any.
        package var comment: String?
        /// Where the issue points.
        package var sourceLocation: SourceLocation
    }

    /// The issues recorded inside one ``capturing(_:)`` scope.
    package final class Capture: Sendable {
        let recorded = Locked([Recorded]())
    }

    @TaskLocal static var capture: Capture?

    /// Runs `body` and returns the issues the test kit recorded meanwhile on this task (and the tasks that inherit its
    /// task-locals), instead of recording them.
    package static func capturing(_ body: () async throws -> Void) async rethrows -> [Recorded] {
        let capture = Capture()
        try await $capture.withValue(capture) { try await body() }
        return capture.recorded.withLock { $0 }
    }

    /// The synchronous form of ``capturing(_:)``.
    package static func capturingSynchronously(_ body: () throws -> Void) rethrows -> [Recorded] {
        let capture = Capture()
        try $capture.withValue(capture) { try body() }
        return capture.recorded.withLock { $0 }
    }

    /// Records `error` as an issue at `sourceLocation`, or captures it.
    static func record(_ error: any Error, _ comment: Comment, sourceLocation: SourceLocation) {
        record(Recorded(message: "\(error)", comment: comment.rawValue, sourceLocation: sourceLocation)) {
            Issue.record(error, comment, sourceLocation: sourceLocation)
        }
    }

    /// Records an issue saying `message` at `sourceLocation`, or captures it.
    static func record(_ message: String, sourceLocation: SourceLocation) {
        record(Recorded(message: message, comment: nil, sourceLocation: sourceLocation)) {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// Captures `recorded` inside a ``capturing(_:)`` scope; otherwise calls `issue`, outside any lock.
    private static func record(_ recorded: Recorded, otherwise issue: () -> Void) {
        guard let capture else { return issue() }
        capture.recorded.withLock { $0.append(recorded) }
    }
}
