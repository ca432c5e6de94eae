import BackgroundTaskKitTesting
import Foundation
import TestSupport
import Testing

/// A failing simulator expectation carries the timeline of its run, and attaches it to the test.
@MainActor
struct TimelineExpectationTests {
    @Test(.failuresOnPurpose) func aFailingExpectationCarriesTheTimelineOfTheRun() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        _ = simulator.beginBackgroundTask(named: "Upload", expirationHandler: nil)
        simulator.advance(by: 60)
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(failure.timeline.lanes.map(\.label) == ["Upload"])
        #expect(failure.timeline.lanes.first?.ending == .heldAtTermination)
        #expect(failure.timeline.termination?.code == "0x8badf00d")
        #expect(failure.description.contains("\nTimeline:\nSimulated run\nterminated 0x8badf00d at 30 s"))
        #expect(failure.description.contains("held at termination"))
        let svg = try #require(SVGDocument(failure.timeline.svg()))
        #expect(svg.root.all(withClass: "lane").first?.attributes["data-ending"] == "heldAtTermination")
    }

    /// CI runs this test alone, with `BTK_ATTACHMENT_CHECK=1` and `--attachments-path`, and checks that the picture was
    /// written, named after the test; in the plain run it would print its attachment beside passing tests.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BTK_ATTACHMENT_CHECK"] == "1"))
    func aFailingExpectationAttachesItsTimelineToTheTest() throws {
        let simulator = BackgroundTaskSimulator()
        simulator.enterBackground()
        _ = simulator.beginBackgroundTask(named: "Sync", expirationHandler: nil)
        simulator.advance(by: 10)
        #expect(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        #expect(
            TimelineAttachments.attachmentName(forTestNamed: "aFailingExpectationAttachesItsTimelineToTheTest()")
                == "aFailingExpectationAttachesItsTimelineToTheTest-timeline.svg")
        let failure = try #require(throws: SimulatorExpectationFailure.self) { try simulator.expectNoLeaks() }
        let picture = TimelineAttachments.picture(of: failure, inTestNamed: "syncEnds()")
        #expect(picture.title == "syncEnds()")
        #expect(picture.notes.first == failure.message)
    }

    @Test(arguments: [
        ("exportEndsItsTask()", "exportEndsItsTask-timeline.svg"),
        ("An export / ends its task!", "An-export-ends-its-task-timeline.svg"),
        ("", "test-timeline.svg"), ("ñ", "test-timeline.svg"),
    ])
    func attachmentNamesAreSafeFileNames(name: String, expected: String) {
        #expect(TimelineAttachments.attachmentName(forTestNamed: name) == expected)
    }
}
