import BackgroundTaskSimulation
import BackgroundTaskTimeline
import Testing

/// Attaches the timeline of each failing simulator expectation to the Swift Testing test it failed in, so that the
/// picture of the run appears beside the failure in Xcode's test report; `swift test --attachments-path FOLDER` writes
/// the attachments to a folder, for Linux CI.
///
/// The attachment is `TESTNAME-timeline.svg`, titled with the test's name, with the failure's message under the lanes.
/// It is recorded when an `expect…` helper fails, also when the test then catches the error (the `waitFor…` helpers
/// attach nothing). Outside a Swift Testing test (XCTest, `bgtask`) nothing is attached; the failure still carries
/// ``SimulatorExpectationFailure/timeline``. Attachments need Swift 6.2 (Xcode 26); the load-time installation, Swift 6.3
/// (with Swift 6.2 the `.backgroundTaskSimulator` trait installs it).
package enum TimelineAttachments {
    /// Makes the test kit attach timelines (idempotent).
    package static func install() {
        _ = installed
    }

    /// Set by the package's own tests of failures, which pass by failing on purpose: nothing to attach.
    @TaskLocal package static var isSuppressed = false

    private static let installed: Void = ExpectationFailureReporting.install { failure in
        // `Attachment` is public from Swift 6.2; with older compilers the failure still carries its timeline.
        #if compiler(>=6.2)
            guard !isSuppressed, let test = Test.current else { return }
            let name = test.displayName ?? test.name
            Attachment.record(
                picture(of: failure, inTestNamed: name).svg(), named: attachmentName(forTestNamed: test.name))
        #endif
    }

    /// The failure's timeline titled with the test's name, its message the first note.
    package static func picture(of failure: SimulatorExpectationFailure, inTestNamed name: String)
        -> BackgroundTaskTimeline
    {
        var timeline = failure.timeline
        timeline.title = name
        timeline.notes.insert(failure.message, at: 0)
        return timeline
    }

    /// `exportEndsItsTask-timeline.svg`: the test's name with only letters, digits, `-`, `_` and `.` kept.
    package static func attachmentName(forTestNamed name: String) -> String {
        var kept = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber || "-_.".contains(character) {
                kept.append(character)
            } else if !kept.hasSuffix("-"), !kept.isEmpty {
                kept.append("-")
            }
        }
        while kept.hasSuffix("-") { kept.removeLast() }
        return (kept.isEmpty ? "test" : String(kept.prefix(80))) + "-timeline.svg"
    }
}
