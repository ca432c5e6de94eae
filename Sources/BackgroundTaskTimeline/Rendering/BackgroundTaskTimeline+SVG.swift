extension BackgroundTaskTimeline {
    /// The timeline as a standalone SVG document: a title, a time axis, rows for the app's state, the background
    /// time and the system's moments, one lane per assertion, the termination with its code, and a legend.
    ///
    /// Every element has a `<title>` (shown on hover, read by screen readers) and the document a `<title>` and
    /// `<desc>` that summarize it. Elements carry `class` and `data-` attributes (`data-ending`, `data-begin`,
    /// `data-code`, …), so tools and tests can read the picture back. More lanes than
    /// ``TimelineRenderingOptions/maximumLanes`` fold into density bands (see ``TimelineRenderingOptions``).
    ///
    /// - Parameter options: The width and how many lanes to draw one by one.
    /// - Returns: The SVG document, UTF-8 text.
    public func svg(options: TimelineRenderingOptions = TimelineRenderingOptions()) -> String {
        Self.svg(of: [self], options: options)
    }

    /// Several timelines in one SVG document, one panel each, stacked on one shared time scale: the same flow
    /// run two ways, side by side.
    ///
    /// - Parameters:
    ///   - timelines: The panels, top to bottom; none gives a document that says so.
    ///   - options: The width and how many lanes each panel draws one by one.
    /// - Returns: The SVG document, UTF-8 text.
    public static func svg(
        of timelines: [BackgroundTaskTimeline], options: TimelineRenderingOptions = TimelineRenderingOptions()
    ) -> String {
        var renderer = TimelineSVGRenderer(timelines: timelines, options: options)
        return renderer.render()
    }
}

/// Lays out and writes the SVG of one or more timelines.
struct TimelineSVGRenderer {
    let timelines: [BackgroundTaskTimeline]
    let width: Double
    let maximumLanes: Int
    let start: Double
    let end: Double
    let margin = 16.0
    let labelWidth: Double
    let laneHeight = 28.0
    let rowHeight = 24.0
    let bandHeight = 36.0
    var out: SVGBuilder

    init(timelines: [BackgroundTaskTimeline], options: TimelineRenderingOptions) {
        self.timelines = timelines
        width = Double(options.clampedWidth)
        maximumLanes = options.clampedMaximumLanes
        labelWidth = width < 720 ? 170 : 250
        let starts = timelines.map(\.start).filter(\.isFinite)
        let ends = timelines.map { $0.end.isFinite ? max($0.end, $0.start) : $0.start }.filter(\.isFinite)
        start = starts.min() ?? 0
        end = max(ends.max() ?? 1, start)
        out = SVGBuilder(capacity: 16_384)
    }

    var chartLeft: Double { margin + labelWidth }
    var chartRight: Double { width - margin - 8 }

    /// The x of a time on the shared scale (times out of range are pinned to the edges).
    func x(_ time: Double) -> Double {
        chartLeft + TimelineScale.fraction(of: time, start: start, end: end) * (chartRight - chartLeft)
    }

    mutating func render() -> String {
        let panels = timelines.map { timeline in
            (timeline, TimelineFolding(timeline.lanes, maximum: maximumLanes, end: timeline.end))
        }
        let legendHeight = legendRows() * 20 + 16
        let height = panels.reduce(margin) { $0 + panelHeight($1.0, $1.1) } + legendHeight + margin
        let heading =
            timelines.count == 1
            ? "Background-task timeline: \(timelines[0].title)"
            : "Background-task timelines: " + timelines.map(\.title).joined(separator: "; ")
        out.raw(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(out.n(width))\" height=\"\(out.n(height))\" "
                + "viewBox=\"0 0 \(out.n(width)) \(out.n(height))\" role=\"img\" "
                + "aria-labelledby=\"timeline-title\" aria-describedby=\"timeline-desc\" "
                + "font-family=\"-apple-system, 'Helvetica Neue', Helvetica, Arial, sans-serif\">")
        out.raw("<title id=\"timeline-title\">\(SVGBuilder.escape(heading))</title>")
        out.raw("<desc id=\"timeline-desc\">\(SVGBuilder.escape(description(panels)))</desc>")
        out.rect(x: 0, y: 0, width: width, height: height, fill: "#ffffff")
        if timelines.isEmpty {
            out.text("No timeline to draw.", x: margin, y: margin + 14, size: 14)
        }
        var y = margin
        for (index, (timeline, folding)) in panels.enumerated() {
            drawPanel(timeline, folding, number: index + 1, top: y)
            y += panelHeight(timeline, folding)
        }
        drawLegend(top: y)
        out.raw("</svg>\n")
        return out.output
    }

    /// What a screen reader says for the picture: each panel's summary and the lanes with a problem.
    private func description(_ panels: [(BackgroundTaskTimeline, TimelineFolding)]) -> String {
        var sentences: [String] = []
        for (timeline, _) in panels {
            sentences.append(timeline.summary)
            let troubled = timeline.lanes.filter(\.hasProblem)
            for lane in troubled.prefix(12) {
                let words = laneDescription(lane, timelineEnd: timeline.end)
                sentences.append(words.hasSuffix(".") ? words : words + ".")
            }
            if troubled.count > 12 { sentences.append("And \(troubled.count - 12) more lanes with a problem.") }
        }
        return sentences.joined(separator: " ")
    }

    private func panelHeight(_ timeline: BackgroundTaskTimeline, _ folding: TimelineFolding) -> Double {
        let bands = (folding.finished.isEmpty ? 0 : 1) + (folding.troubled.isEmpty ? 0 : 1)
        let lanes = max(folding.visible.count, timeline.lanes.isEmpty ? 1 : 0)
        return 64 + 3 * rowHeight + Double(lanes) * laneHeight + Double(bands) * bandHeight
            + Double(noteLines(timeline).count) * 16 + 20
    }

    // MARK: - A panel

    private mutating func drawPanel(
        _ timeline: BackgroundTaskTimeline, _ folding: TimelineFolding, number: Int, top: Double
    ) {
        out.open("g", [("class", "panel"), ("id", "panel-\(number)"), ("data-title", timeline.title)])
        out.text(timeline.title, x: margin, y: top + 16, size: 15, weight: "bold", className: "panel-title")
        if let subtitle = timeline.subtitle {
            let alarming = timeline.termination != nil
            out.text(
                subtitle, x: margin, y: top + 34, size: 12, fill: alarming ? TimelinePalette.termination : "#555555",
                className: "panel-subtitle")
        }
        let axisY = top + 56
        let rowsTop = axisY + 8
        let notes = noteLines(timeline)
        let bottom = top + panelHeight(timeline, folding) - 20 - Double(notes.count) * 16
        drawAxis(y: axisY, bottom: bottom)
        drawStates(timeline, y: rowsTop)
        drawBudgets(timeline, y: rowsTop + rowHeight)
        drawMoments(timeline, y: rowsTop + 2 * rowHeight)
        var y = rowsTop + 3 * rowHeight
        out.open("g", [("class", "lanes")])
        if timeline.lanes.isEmpty {
            out.text("No lane to draw.", x: chartLeft, y: y + 17, size: 12, fill: "#666666")
            y += laneHeight
        }
        for lane in folding.visible {
            drawLane(lane, timelineEnd: timeline.end, y: y)
            y += laneHeight
        }
        out.close("g")
        if !folding.finished.isEmpty {
            drawBand(folding.finished, troubled: false, timelineEnd: timeline.end, y: y)
            y += bandHeight
        }
        if !folding.troubled.isEmpty {
            drawBand(folding.troubled, troubled: true, timelineEnd: timeline.end, y: y)
            y += bandHeight
        }
        drawGuides(timeline, top: rowsTop, bottom: y)
        for note in notes {
            y += 16
            out.text(note, x: margin, y: y, size: 11, fill: "#555555", className: "note")
        }
        out.close("g")
    }

    /// The notes, wrapped to the picture's width (at about 6 points a character of 11-point text).
    private func noteLines(_ timeline: BackgroundTaskTimeline) -> [String] {
        timeline.notes.flatMap { SVGBuilder.wrap($0, to: Int((width - 2 * margin) / 6)) }
    }

    private mutating func drawAxis(y: Double, bottom: Double) {
        out.open("g", [("class", "axis")])
        let step = Self.tickStep(for: end - start)
        var tick = (start / step).rounded(.up) * step
        var count = 0
        while tick <= end + step * 1e-9, count < 40 {
            let position = x(tick)
            out.line(x1: position, y1: y + 4, x2: position, y2: bottom, stroke: "#ececec", className: "tick")
            out.text(
                "\(TimelineNumber.seconds(tick)) s", x: position, y: y, size: 10, fill: "#666666", anchor: "middle",
                className: "tick-label")
            let next = tick + step
            guard next > tick else { break }  // a step too small for the start's magnitude
            tick = next
            count += 1
        }
        out.close("g")
    }

    /// 1, 2 or 5 times a power of ten, for at most eight ticks.
    static func tickStep(for span: Double) -> Double {
        guard span.isFinite, span > 0 else { return 1 }
        var power = 1e-3
        while power < 1e15 {
            for factor in [1.0, 2.0, 5.0] where span / (factor * power) <= 8 {
                return factor * power
            }
            power *= 10
        }
        return power
    }

    private mutating func rowLabel(_ text: String, y: Double) {
        out.text(text, x: margin, y: y + 15, size: 12, fill: "#333333", weight: "bold", className: "row-label")
    }

    private mutating func drawStates(_ timeline: BackgroundTaskTimeline, y: Double) {
        out.open("g", [("class", "row app-state")])
        rowLabel("App", y: y)
        var spans =
            timeline.appStates.isEmpty
            ? [TimelineStateSpan(state: .unknown, from: timeline.start, to: timeline.end)] : timeline.appStates
        // A killed app stays dead, and a suspended one asleep, to the end of the shared scale beside panels that run
        // longer: nothing happens to it after its last event.
        if let last = spans.indices.last, spans[last].state == .terminated || spans[last].state == .suspended {
            spans[last].to = max(spans[last].to, end)
        }
        for span in spans {
            let left = x(span.from)
            let right = x(span.to)
            let words = TimelinePalette.words(span.state)
            out.rect(
                x: left, y: y + 4, width: right - left, height: 16, fill: TimelinePalette.fill(span.state),
                className: "state state-\(span.state.rawValue)",
                extra: SVGBuilder.attribute("data-state", span.state.rawValue)
                    + SVGBuilder.attribute("data-from", TimelineNumber.seconds(span.from))
                    + SVGBuilder.attribute("data-to", TimelineNumber.seconds(span.to)),
                title: "\(words) from \(TimelineNumber.seconds(span.from)) s to \(TimelineNumber.seconds(span.to)) s")
            if right - left > Double(words.count) * 6 + 8 {
                out.text(words, x: left + 4, y: y + 16, size: 10, fill: "#333333")
            }
        }
        out.close("g")
    }

    private mutating func drawBudgets(_ timeline: BackgroundTaskTimeline, y: Double) {
        out.open("g", [("class", "row budget")])
        rowLabel("Background time", y: y)
        if timeline.budgets.isEmpty {
            out.text("not in the background", x: chartLeft, y: y + 16, size: 10, fill: "#666666")
        }
        for budget in timeline.budgets {
            let granted =
                budget.seconds.isFinite ? "\(TimelineNumber.seconds(budget.seconds)) s of" : "unlimited"
            var words =
                "Entered the background at \(TimelineNumber.seconds(budget.from)) s with \(granted) background time; "
                + "used \(TimelineNumber.seconds(budget.used)) s"
            if let called = budget.handlersCalledAt {
                words += "; expiration handlers called at \(TimelineNumber.seconds(called)) s"
            }
            if let gone = budget.goneAt { words += "; the budget was gone at \(TimelineNumber.seconds(gone)) s" }
            out.open(
                "g",
                [
                    ("class", "budget-stay"),
                    ("data-seconds", budget.seconds.isFinite ? TimelineNumber.seconds(budget.seconds) : "unlimited"),
                    ("data-used", TimelineNumber.seconds(budget.used)),
                ])
            out.title(words)
            out.rect(
                x: x(budget.from), y: y + 7, width: x(budget.to) - x(budget.from), height: 10, fill: "#fff7e6",
                stroke: "#e0c38a", className: "budget-outline")
            for run in budget.runs {
                out.rect(
                    x: x(run.from), y: y + 7, width: x(run.to) - x(run.from), height: 10,
                    fill: TimelinePalette.budgetRun,
                    className: "budget-run")
            }
            if let gone = budget.goneAt {
                out.line(
                    x1: x(gone), y1: y + 3, x2: x(gone), y2: y + 21, stroke: TimelinePalette.termination, width: 2,
                    className: "budget-gone")
            }
            out.close("g")
        }
        out.close("g")
    }

    private mutating func drawMoments(_ timeline: BackgroundTaskTimeline, y: Double) {
        out.open("g", [("class", "row system")])
        rowLabel("System", y: y)
        for moment in timeline.moments {
            let shape: SVGBuilder.Shape =
                switch moment.kind {
                case .handlersCalled: .diamond
                case .console: .triangle
                case .refused: .square
                case .note: .circle
                case .terminationPrevented: .cross
                }
            out.shape(
                shape, x: x(moment.time), y: y + 12, radius: 5, fill: TimelinePalette.fill(moment.kind),
                className: "moment moment-\(moment.kind.rawValue)",
                extra: SVGBuilder.attribute("data-kind", moment.kind.rawValue)
                    + SVGBuilder.attribute("data-time", TimelineNumber.seconds(moment.time)),
                title: "\(TimelineNumber.seconds(moment.time)) s: \(moment.text)")
        }
        out.close("g")
    }
}
