import BackgroundTaskTimeline
import TestSupport
import Testing

/// The SVG picture: well-formed, accessible, and holding the lanes, times and codes of the timeline it draws.
struct TimelineSVGTests {
    /// A naive export: begun in the background, its handler called at 26 s, still held when killed at 30 s.
    static let killed = BackgroundTaskTimeline(
        title: "export — naive", subtitle: "terminated 0x8badf00d at 30 s", end: 30,
        lanes: [
            TimelineLane(
                name: "Export 1", identifier: "1", callSite: "App/Export.swift:12 (export())", begin: 0, end: nil,
                ending: .heldAtTermination,
                marks: [
                    TimelineMark(kind: .expirationHandlerCalled, time: 26, text: "expiration handler called"),
                    TimelineMark(kind: .heldAfterHandlers, time: 26, text: "still held after its handler"),
                ]),
            TimelineLane(
                name: "Export 2", identifier: "2", callSite: "App/Export.swift:12 (export())", begin: 1, end: 3,
                ending: .ended),
            TimelineLane(kind: .fileLock, name: "library.sqlite", begin: 2, end: 4, ending: .ended),
        ],
        appStates: [
            TimelineStateSpan(state: .background, from: 0, to: 30),
            TimelineStateSpan(state: .terminated, from: 30, to: 30),
        ],
        budgets: [
            TimelineBudget(
                seconds: 30, from: 0, to: 30, runs: [.init(from: 0, to: 30)], handlersCalledAt: 26, goneAt: 30)
        ],
        moments: [TimelineMoment(kind: .handlersCalled, time: 26, text: "background time ran out")],
        termination: TimelineTermination(time: 30, code: "0x8badf00d", reason: "assertionsHeldAfterExpiration"))

    @Test func pictureIsWellFormedAndAccessible() throws {
        let svg = try #require(SVGDocument(Self.killed.svg()))
        #expect(svg.root.name == "svg")
        #expect(svg.root.attributes["role"] == "img")
        #expect(svg.root.attributes["aria-labelledby"] == "timeline-title")
        #expect(svg.root.attributes["aria-describedby"] == "timeline-desc")
        let title = try #require(svg.root.children.first { $0.name == "title" })
        #expect(title.text == "Background-task timeline: export — naive")
        let description = try #require(svg.root.children.first { $0.name == "desc" })
        #expect(description.text.contains("2 assertions, 1 file lock over 30 s, 1 with a problem"))
        #expect(description.text.contains("terminated 0x8badf00d at 30 s"))
        #expect(description.text.contains("\"Export 1\" begun at App/Export.swift:12 (export()), from 0 s, held 30 s"))
        // Every lane, mark, state and moment says what it is in words.
        for className in ["lane", "mark", "state", "moment", "termination", "budget-stay"] {
            let elements = svg.root.all(withClass: className)
            #expect(!elements.isEmpty, "no \(className)")
            for element in elements { #expect(element.title?.isEmpty == false, "\(className) without a title") }
        }
        #expect(svg.root.all(withClass: "legend").count == 1)
    }

    @Test func oneLanePerAssertionWithItsTimesEndingAndCallSite() throws {
        let svg = try #require(SVGDocument(Self.killed.svg()))
        let lanes = svg.root.all(withClass: "lane")
        #expect(lanes.map { $0.attributes["data-ending"] } == ["heldAtTermination", "ended", "ended"])
        #expect(lanes.map { $0.attributes["data-kind"] } == ["assertion", "assertion", "fileLock"])
        #expect(lanes.map { $0.number("begin") } == [0, 1, 2])
        #expect(lanes.map { $0.number("end") } == [nil, 3, 4])
        #expect(lanes[0].attributes["data-call-site"] == "App/Export.swift:12 (export())")
        #expect(lanes[0].all(withClass: "open-end").count == 1)
        #expect(lanes[1].all(withClass: "open-end").isEmpty)
        let marks = lanes[0].all(withClass: "mark")
        #expect(marks.map { $0.attributes["data-kind"] } == ["expirationHandlerCalled", "heldAfterHandlers"])
        #expect(marks.map { $0.number("time") } == [26, 26])
    }

    @Test func terminationShowsItsCodeAndTime() throws {
        let svg = try #require(SVGDocument(Self.killed.svg()))
        let termination = try #require(svg.root.all(withClass: "termination").first)
        #expect(termination.attributes["data-code"] == "0x8badf00d")
        #expect(termination.number("time") == 30)
        #expect(termination.all(withClass: "termination-code").first?.text == "✕ 0x8badf00d")
        let guides = svg.root.all(withClass: "guide-handlers")
        #expect(guides.count == 1)
        let budget = try #require(svg.root.all(withClass: "budget-stay").first)
        #expect(budget.number("seconds") == 30 && budget.number("used") == 30)
        #expect(budget.all(withClass: "budget-gone").count == 1)
    }

    @Test func axisTicksFallOnRoundSeconds() throws {
        let svg = try #require(SVGDocument(Self.killed.svg()))
        let labels = svg.root.all(withClass: "tick-label").map(\.text)
        #expect(labels == ["0 s", "5 s", "10 s", "15 s", "20 s", "25 s", "30 s"])
    }

    @Test func aLiveRunHasNoTermination() throws {
        var timeline = Self.killed
        timeline.termination = nil
        let svg = try #require(SVGDocument(timeline.svg()))
        #expect(svg.root.all(withClass: "termination").isEmpty)
    }

    @Test func namesThatLookLikeMarkupAreEscaped() throws {
        let name = "<script>alert(\"x\") & 'y'</script>\u{0007}\u{FFFF}"
        let timeline = BackgroundTaskTimeline(
            title: "a & b <c>", end: 10, lanes: [TimelineLane(name: name, begin: 0, end: 5, ending: .ended)])
        let svg = try #require(SVGDocument(timeline.svg(options: TimelineRenderingOptions(width: 2_000))))
        let label = try #require(svg.root.all(withClass: "lane-label").first)
        #expect(label.text == "<script>alert(\"x\") & 'y'</script>\u{FFFD}\u{FFFD}")
        #expect(svg.panels.first?.attributes["data-title"] == "a & b <c>")
    }

    @Test func comparisonPanelsShareOneTimeScale() throws {
        let face = BackgroundTaskTimeline(
            title: "export — safe", end: 150,
            lanes: [TimelineLane(name: "Export", identifier: "1", begin: 0, end: 2, ending: .ended)],
            appStates: [
                TimelineStateSpan(state: .background, from: 0, to: 2),
                TimelineStateSpan(state: .suspended, from: 2, to: 150),
            ])
        let svg = try #require(SVGDocument(BackgroundTaskTimeline.svg(of: [Self.killed, face])))
        #expect(svg.panels.map { $0.attributes["data-title"] } == ["export — naive", "export — safe"])
        func right(_ rect: SVGDocument.Element) -> Double? {
            guard let x = rect.attributes["x"].flatMap(Double.init),
                let width = rect.attributes["width"].flatMap(Double.init)
            else { return nil }
            return x + width
        }
        // The killed app stays dead to the end of the longer run, on the same scale.
        let killedLast = try #require(svg.panels[0].all(withClass: "state").last)
        let faceLast = try #require(svg.panels[1].all(withClass: "state").last)
        #expect(killedLast.attributes["data-state"] == "terminated")
        #expect(right(killedLast) == right(faceLast))
        let ticks = svg.panels.map { $0.all(withClass: "tick-label").map(\.text) }
        #expect(ticks[0] == ticks[1])
        #expect(ticks[0].last == "140 s")
    }

    @Test func noTimelineGivesADocumentThatSaysSo() throws {
        let svg = try #require(SVGDocument(BackgroundTaskTimeline.svg(of: [])))
        #expect(svg.root.all(named: "text").contains { $0.text == "No timeline to draw." })
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -5, 0, .greatestFiniteMagnitude])
    func badTimesAndOptionsDrawWithoutNaNOrATrap(value: Double) throws {
        let timeline = BackgroundTaskTimeline(
            title: "", start: value, end: value,
            lanes: [
                TimelineLane(
                    name: "", begin: value, end: value, ending: .ended,
                    marks: [TimelineMark(kind: .warning, time: value, text: "")]),
                TimelineLane(name: nil, begin: 0, end: nil, ending: .stillHeld),
            ],
            appStates: [TimelineStateSpan(state: .foreground, from: value, to: 0)],
            budgets: [TimelineBudget(seconds: value, from: value, to: value, runs: [.init(from: value, to: 0)])],
            moments: [TimelineMoment(kind: .console, time: value, text: "")],
            termination: TimelineTermination(time: value, code: "", reason: ""))
        for options in [
            TimelineRenderingOptions(width: 0, maximumLanes: 0, textColumns: 0),
            TimelineRenderingOptions(width: .max, maximumLanes: .max, textColumns: .max),
            TimelineRenderingOptions(width: -1, maximumLanes: -1, textColumns: -1),
        ] {
            let text = timeline.svg(options: options)
            let svg = try #require(SVGDocument(text))
            #expect(svg.root.all(withClass: "lane").count + svg.root.all(withClass: "band").count >= 1)
            #expect(!text.contains("nan") && !text.contains("inf"))
            #expect(!timeline.text(options: options).isEmpty)
        }
    }
}
