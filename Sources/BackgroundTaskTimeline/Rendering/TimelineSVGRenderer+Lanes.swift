extension TimelineSVGRenderer {
    /// The words of a lane: what it is, when it began and how it ended.
    func laneDescription(_ lane: TimelineLane, timelineEnd: Double) -> String {
        var words = "\(TimelinePalette.words(lane.kind).capitalizedFirst) "
        if let identifier = lane.identifier { words += "\(identifier) " }
        words += "\"\(lane.label)\""
        if let callSite = lane.callSite { words += " begun at \(callSite)" }
        words += ", from \(TimelineNumber.seconds(lane.begin)) s"
        if let end = lane.end {
            words += " to \(TimelineNumber.seconds(end)) s (\(TimelineNumber.seconds(end - lane.begin)) s)"
        } else {
            words += ", held \(TimelineNumber.seconds(lane.heldTime(until: timelineEnd))) s"
        }
        words += ": \(TimelinePalette.words(lane.ending))"
        for mark in lane.marks where mark.kind.isProblem {
            words += "; \(TimelineNumber.seconds(mark.time)) s: \(mark.text)"
        }
        return words
    }

    mutating func drawLane(_ lane: TimelineLane, timelineEnd: Double, y: Double) {
        var attributes = [
            ("class", "lane lane-\(lane.kind.rawValue) ending-\(lane.ending.rawValue)"),
            ("data-kind", lane.kind.rawValue), ("data-ending", lane.ending.rawValue),
            ("data-begin", TimelineNumber.seconds(lane.begin)),
        ]
        if let end = lane.end { attributes.append(("data-end", TimelineNumber.seconds(end))) }
        if let identifier = lane.identifier { attributes.append(("data-identifier", identifier)) }
        if let callSite = lane.callSite { attributes.append(("data-call-site", callSite)) }
        out.open("g", attributes)
        out.title(laneDescription(lane, timelineEnd: timelineEnd))
        let characters = Int(labelWidth / 6.6)
        out.text(
            SVGBuilder.truncate(TimelinePalette.rowName(lane), to: characters), x: margin, y: y + 12, size: 12,
            fill: "#222222",
            className: "lane-label")
        let detail = [lane.callSite, TimelinePalette.words(lane.ending)].compactMap { $0 }.joined(separator: " · ")
        out.text(
            SVGBuilder.truncate(detail, to: Int(labelWidth / 5.4)), x: margin, y: y + 24, size: 9.5, fill: "#6a6a6a",
            className: "lane-detail")
        let left = x(lane.begin)
        let right = max(x(lane.end ?? timelineEnd), left + 1.5)
        let held = lane.end == nil
        out.rect(
            x: left, y: y + 8, width: right - left, height: 12, fill: TimelinePalette.fill(lane.ending),
            className: "bar", extra: lane.kind == .assertion ? "" : " rx=\"6\"")
        if held {
            // An open end: the lane was still held when the source stopped looking.
            out.raw(
                "<path d=\"M\(out.n(right)) \(out.n(y + 5))L\(out.n(right + 7)) \(out.n(y + 14))L\(out.n(right)) "
                    + "\(out.n(y + 23))Z\" fill=\"\(TimelinePalette.fill(lane.ending))\" class=\"open-end\"/>")
        }
        for mark in lane.marks {
            let shape: SVGBuilder.Shape =
                switch mark.kind {
                case .expirationHandlerCalled: .diamond
                case .expirationHandlerReturned: .tick
                case .heldAfterHandlers: .cross
                case .endedTwice: .square
                case .warning: .triangle
                case .note: .circle
                }
            out.shape(
                shape, x: x(mark.time), y: y + 14, radius: mark.kind == .expirationHandlerReturned ? 7 : 5.5,
                fill: TimelinePalette.fill(mark.kind), className: "mark mark-\(mark.kind.rawValue)",
                extra: SVGBuilder.attribute("data-kind", mark.kind.rawValue)
                    + SVGBuilder.attribute("data-time", TimelineNumber.seconds(mark.time)),
                title: "\(TimelineNumber.seconds(mark.time)) s: \(mark.text)")
        }
        out.close("g")
    }

    /// Folded lanes as one row: how many were held at each moment, as an area.
    mutating func drawBand(_ lanes: [TimelineLane], troubled: Bool, timelineEnd: Double, y: Double) {
        let bins = max(Int((chartRight - chartLeft) / 2), 1)
        // Lanes held to the end of their own panel, not to the end of a longer panel beside it.
        let band = DensityBand(
            lanes.map { lane in
                var lane = lane
                if lane.end == nil { lane.end = timelineEnd }
                return lane
            }, start: start, end: end, bins: bins)
        let what = troubled ? "more lanes with a problem" : "finished tasks"
        let words =
            "\(TimelineNumber.count(lanes.count)) \(what), folded: up to \(TimelineNumber.count(band.peak)) held at once"
        out.open(
            "g",
            [
                ("class", troubled ? "band band-troubled" : "band band-finished"),
                ("data-count", String(lanes.count)), ("data-peak", String(band.peak)),
            ])
        out.title(words)
        out.text(
            "\(TimelineNumber.count(lanes.count)) \(what)", x: margin, y: y + 14, size: 12, fill: "#222222",
            className: "lane-label")
        out.text(
            "folded; up to \(TimelineNumber.count(band.peak)) at once", x: margin, y: y + 27, size: 9.5,
            fill: "#6a6a6a", className: "lane-detail")
        let floor = y + bandHeight - 6
        let binWidth = (chartRight - chartLeft) / Double(bins)
        var d = "M\(out.n(chartLeft)) \(out.n(floor))"
        for (index, count) in band.counts.enumerated() {
            let height = band.peak == 0 ? 0 : Double(count) / Double(band.peak) * (bandHeight - 10)
            let left = chartLeft + Double(index) * binWidth
            d += "L\(out.n(left)) \(out.n(floor - height))L\(out.n(left + binWidth)) \(out.n(floor - height))"
        }
        d += "L\(out.n(chartRight)) \(out.n(floor))Z"
        out.path(d, fill: troubled ? TimelinePalette.troubledBand : TimelinePalette.band, className: "density")
        out.close("g")
    }

    /// The dashed lines at each expiry and the termination's line with its code, across the rows and lanes.
    mutating func drawGuides(_ timeline: BackgroundTaskTimeline, top: Double, bottom: Double) {
        for moment in timeline.moments where moment.kind == .handlersCalled {
            out.line(
                x1: x(moment.time), y1: top, x2: x(moment.time), y2: bottom, stroke: TimelinePalette.fill(moment.kind),
                width: 1.2, dashed: true, className: "guide guide-handlers")
        }
        guard let termination = timeline.termination else { return }
        let position = x(termination.time)
        out.open(
            "g",
            [
                ("class", "termination"), ("data-code", termination.code),
                ("data-time", TimelineNumber.seconds(termination.time)), ("data-reason", termination.reason),
            ])
        out.title(
            "Terminated with \(termination.code) at \(TimelineNumber.seconds(termination.time)) s: \(termination.reason)"
        )
        out.line(
            x1: position, y1: top - 6, x2: position, y2: bottom, stroke: TimelinePalette.termination, width: 2.5,
            className: "termination-line")
        let label = "✕ \(termination.code)"
        let labelWidth = Double(label.count) * 7 + 10
        // On the system row, right of the line (left of it when there is no room).
        let labelLeft = position + 4 + labelWidth <= chartRight ? position + 4 : position - 4 - labelWidth
        let labelTop = top + 2 * rowHeight + 4
        out.rect(
            x: labelLeft, y: labelTop, width: labelWidth, height: 16, fill: TimelinePalette.termination,
            extra: " rx=\"3\"")
        out.text(
            label, x: labelLeft + 5, y: labelTop + 12, size: 11, fill: "#ffffff", weight: "bold",
            className: "termination-code")
        out.close("g")
    }

    /// The legend's entries: a swatch or shape, its colour and its words.
    private var legendEntries: [(shape: SVGBuilder.Shape?, fill: String, label: String)] {
        var entries: [(shape: SVGBuilder.Shape?, fill: String, label: String)] = TimelineStateSpan.State.allCases.map {
            (nil, TimelinePalette.fill($0), "app \(TimelinePalette.words($0))")
        }
        entries.append((nil, TimelinePalette.budgetRun, "background time running"))
        entries += TimelineLane.Ending.allCases.map { (nil, TimelinePalette.fill($0), TimelinePalette.words($0)) }
        entries += [
            (.triangle, TimelinePalette.fill(TimelineLane.Ending.stillHeld), "open end: held to the edge"),
            (nil, TimelinePalette.band, "folded tasks held at once"),
            (.diamond, TimelinePalette.fill(TimelineMark.Kind.expirationHandlerCalled), "expiration handlers called"),
            (.tick, TimelinePalette.fill(TimelineMark.Kind.expirationHandlerReturned), "handler returned"),
            (.cross, TimelinePalette.fill(TimelineMark.Kind.heldAfterHandlers), "held after its handlers"),
            (.square, TimelinePalette.fill(TimelineMark.Kind.endedTwice), "ended twice / begin refused"),
            (.triangle, TimelinePalette.fill(TimelineMark.Kind.warning), "iOS console warning"),
            (.circle, TimelinePalette.fill(TimelineMark.Kind.note), "note"),
            (.cross, TimelinePalette.fill(TimelineMoment.Kind.terminationPrevented), "kill the debugger prevented"),
            (.tick, TimelinePalette.termination, "termination, with its code; budget gone"),
        ]
        return entries
    }

    /// Where each legend entry goes: wrapped before an entry that would pass the right edge.
    private func legendLayout() -> [(x: Double, row: Int)] {
        var positions: [(x: Double, row: Int)] = []
        var x = margin
        var row = 0
        for entry in legendEntries {
            let entryWidth = Double(entry.label.count) * 6 + 30
            if x > margin, x + entryWidth > width - margin {
                x = margin
                row += 1
            }
            positions.append((x, row))
            x += entryWidth
        }
        return positions
    }

    /// How many rows the legend takes at this width.
    func legendRows() -> Double {
        Double((legendLayout().last?.row ?? 0) + 1)
    }

    mutating func drawLegend(top: Double) {
        out.open("g", [("class", "legend")])
        out.title("Legend")
        for (entry, position) in zip(legendEntries, legendLayout()) {
            let x = position.x
            let y = top + 14 + Double(position.row) * 20
            if let shape = entry.shape {
                out.shape(
                    shape, x: x + 7, y: y - 4, radius: 5, fill: entry.fill, className: "legend-shape", extra: "",
                    title: entry.label)
            } else {
                out.rect(x: x, y: y - 9, width: 14, height: 10, fill: entry.fill, stroke: "#bbbbbb")
            }
            out.text(entry.label, x: x + 18, y: y, size: 10.5, fill: "#333333")
        }
        out.close("g")
    }
}

extension String {
    /// The string with its first letter upper-cased.
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
