import BackgroundTaskTimeline
import Testing

/// The plain-text chart for terminals.
struct TimelineTextTests {
    @Test func chartShowsStatesBudgetLanesAndTheTermination() {
        let lines = TimelineSVGTests.killed.text(options: TimelineRenderingOptions(textColumns: 31)).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        #expect(lines[0] == "export — naive")
        #expect(lines[1] == "terminated 0x8badf00d at 30 s")
        #expect(lines[2].hasPrefix(String(repeating: " ", count: 22) + "0 s"))
        #expect(lines[2].contains("15 s") && lines[2].hasSuffix("30 s"))
        // One column a second: background from 0, terminated at 30.
        #expect(lines[3] == "App                   " + String(repeating: "B", count: 30) + "X")
        #expect(lines[4] == "Background time       " + String(repeating: "=", count: 26) + "E===|")
        #expect(lines[5].hasPrefix("System                " + String(repeating: " ", count: 26) + "E   X"))
        #expect(lines[5].hasSuffix("terminated 0x8badf00d"))
        #expect(
            lines[6] == "1 Export 1            " + String(repeating: "#", count: 26) + "!###X"
                + "  held at termination · App/Export.swift:12 (export())")
        #expect(
            lines[7] == "2 Export 2             ===" + String(repeating: " ", count: 27)
                + "  ended · App/Export.swift:12 (export())")
        #expect(lines[8].hasPrefix("lock library.sqlite     ==="))
        #expect(lines.contains { $0.hasPrefix("Key: ") })
    }

    @Test func aZeroLengthRunLabelsItsAxisOnce() {
        let timeline = BackgroundTaskTimeline(
            title: "instant", end: 0, lanes: [TimelineLane(name: "x", begin: 0, end: 0, ending: .ended)])
        let axis = timeline.text().split(separator: "\n")[1]
        #expect(String(axis.drop { $0 == " " }) == "0 s")
    }
}
