import BackgroundTaskTimeline
import TestSupport
import Testing

/// Many lanes: finished short ones fold into a density band, the held ones stay visible.
struct TimelineFoldingTests {
    /// `finished` tasks of 0.5 s each, 20 at a time, and `held` tasks still held at the end.
    static func burst(finished: Int, held: Int) -> BackgroundTaskTimeline {
        var lanes: [TimelineLane] = []
        for index in 0..<finished {
            let begin = Double(index / 20) * 0.5
            lanes.append(
                TimelineLane(
                    name: "Write \(index)", identifier: String(index + 1), begin: begin, end: begin + 0.5,
                    ending: .ended))
        }
        for index in 0..<held {
            lanes.append(
                TimelineLane(
                    name: "Leak \(index)", identifier: String(finished + index + 1), begin: Double(index), end: nil,
                    ending: .heldAtTermination))
        }
        return BackgroundTaskTimeline(
            title: "burst", end: Double(finished / 20) * 0.5 + 1, lanes: lanes,
            termination: TimelineTermination(time: Double(finished / 20) * 0.5 + 1, code: "0x8badf00d", reason: "held"))
    }

    @Test func finishedShortLanesFoldIntoADensityBandAndHeldOnesStayVisible() throws {
        let timeline = Self.burst(finished: 9_990, held: 10)
        let svg = try #require(SVGDocument(timeline.svg()))
        let lanes = svg.root.all(withClass: "lane")
        #expect(lanes.count == 30)
        #expect(lanes.filter { $0.attributes["data-ending"] == "heldAtTermination" }.count == 10)
        let band = try #require(svg.root.all(withClass: "band-finished").first)
        #expect(band.number("count") == 9_970)
        #expect(band.number("peak") == 20)
        #expect(band.title == "9,970 finished tasks, folded: up to 20 held at once")
        #expect(svg.root.all(withClass: "band-troubled").isEmpty)
    }

    @Test func moreHeldLanesThanFitFoldIntoASecondBandAfterTheWorst() throws {
        var timeline = Self.burst(finished: 5, held: 50)
        // A lane the app survived comes after those that get it killed, whatever its begin.
        timeline.lanes[5].ending = .endedBySafetyNet
        timeline.lanes[5].end = 1
        let svg = try #require(SVGDocument(timeline.svg(options: TimelineRenderingOptions(maximumLanes: 20))))
        let lanes = svg.root.all(withClass: "lane")
        #expect(lanes.count == 20)
        #expect(lanes.allSatisfy { $0.attributes["data-ending"] == "heldAtTermination" })
        #expect(svg.root.all(withClass: "band-troubled").first?.number("count") == 30)
        #expect(svg.root.all(withClass: "band-finished").first?.number("count") == 5)
    }

    @Test func fewLanesNeverFold() throws {
        let svg = try #require(SVGDocument(Self.burst(finished: 20, held: 1).svg()))
        #expect(svg.root.all(withClass: "lane").count == 21)
        #expect(svg.root.all(withClass: "band").isEmpty)
    }

    @Test func textChartFoldsTheSameWay() {
        let text = Self.burst(finished: 9_990, held: 10).text()
        #expect(text.contains("9,970 finished tasks"))
        #expect(text.contains("folded; up to 20 at once"))
        #expect(text.components(separatedBy: "held at termination").count - 1 == 10)
    }
}
