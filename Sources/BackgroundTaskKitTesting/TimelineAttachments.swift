import BackgroundTaskSimulation
import BackgroundTaskTimeline
import Testing

/// Attaches the timeline of each failing simulator expectation to the Swift Testing test it failed in, so that the
/// picture of the run appears beside the failure in Xcode's test report; `swift test --attachments-path FOLDER` writes
/// the attachments to a folder, for Linux CI.
///
/// The attachment is `TESTNAME-timeline.svg`. It is recorded when the `expect…` helper fails, also when the test then
/// catches the error. Outside a Swift Testing test (XCTest, `bgtask`) nothing is attached; the failure still carries
/// ``SimulatorExpectationFailure/timeline``.
package enum TimelineAttachments {
    /// Makes the test kit attach timelines (idempotent).
    package static func install() {
        _ = installed
    }

    private static let installed: Void = ExpectationFailureReporting.install { failure in
        guard let test = Test.current else { return }
        Attachment.record(failure.timeline.svg(), named: attachmentName(forTestNamed: test.name))
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
