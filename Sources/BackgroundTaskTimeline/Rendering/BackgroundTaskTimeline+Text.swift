extension BackgroundTaskTimeline {
    /// The timeline as plain text for a terminal: one row of characters per lane on a shared time axis, rows for the
    /// app's state, the background time and the system, the lanes' endings and call sites, and a key. The chart's
    /// own characters are ASCII; names and call sites are shown as given, with control characters replaced by `?`.
    ///
    /// ```text
    /// property-overwrite — naive
    /// terminated 0x8badf00d at 35 s (assertionsHeldAfterExpiration)
    ///                       0 s                           60 s                        120 s
    /// App                   FFFFBBBBBBBBBBBBBBBBBXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX
    /// Background time           =============E=|
    /// 1 Export              ====#################X  held at termination · App/Export.swift:12
    /// ```
    ///
    /// - Parameter options: The chart's columns and how many lanes to draw one by one.
    /// - Returns: The lines, joined with newlines and ending with one.
    public func text(options: TimelineRenderingOptions = TimelineRenderingOptions()) -> String {
        var chart = TimelineTextChart(timeline: self, columns: options.clampedTextColumns)
        return chart.render(folding: TimelineFolding(lanes, maximum: options.clampedMaximumLanes, end: end))
    }
}

/// Draws one timeline with characters.
struct TimelineTextChart {
    let timeline: BackgroundTaskTimeline
    let columns: Int
    let labelWidth = 22
    private var lines: [String] = []

    init(timeline: BackgroundTaskTimeline, columns: Int) {
        self.timeline = timeline
        self.columns = columns
    }

    private var start: Double { timeline.start.isFinite ? timeline.start : 0 }
    private var end: Double { timeline.end.isFinite ? max(timeline.end, start) : start }

    private func column(_ time: Double) -> Int {
        Int((TimelineScale.fraction(of: time, start: start, end: end) * Double(columns - 1)).rounded())
    }

    private func label(_ text: String) -> String {
        let cut = SVGBuilder.truncate(text, to: labelWidth - 2)
        return cut + String(repeating: " ", count: labelWidth - cut.count)
    }

    private func blank(_ fill: Character = " ") -> [Character] {
        [Character](repeating: fill, count: columns)
    }

    private func fill(_ row: inout [Character], from: Double, to: Double, with character: Character) {
        let first = column(from)
        let last = column(to)
        guard first <= last else { return }
        for index in first...last { row[index] = character }
    }

    private mutating func add(_ name: String, _ row: [Character], _ trailer: String = "") {
        var line = label(Self.printable(name)) + String(row)
        if trailer.isEmpty {
            while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
        } else {
            line += "  " + Self.printable(trailer)
        }
        lines.append(line)
    }

    mutating func render(folding: TimelineFolding) -> String {
        lines = [Self.printable(timeline.title)]
        if let subtitle = timeline.subtitle { lines.append(Self.printable(subtitle)) }
        addAxis()
        var state = blank()
        for span in timeline.appStates {
            fill(&state, from: span.from, to: span.to, with: TimelinePalette.character(span.state))
        }
        add("App", timeline.appStates.isEmpty ? blank("?") : state)
        var budget = blank()
        for stay in timeline.budgets {
            fill(&budget, from: stay.from, to: stay.to, with: ".")
            for run in stay.runs { fill(&budget, from: run.from, to: run.to, with: "=") }
            if let called = stay.handlersCalledAt { budget[column(called)] = "E" }
            if let gone = stay.goneAt { budget[column(gone)] = "|" }
        }
        add("Background time", budget)
        var system = blank()
        for moment in timeline.moments {
            system[column(moment.time)] =
                switch moment.kind {
                case .handlersCalled: "E"
                case .console: "w"
                case .refused: "n"
                case .terminationPrevented: "x"
                case .note: "*"
                }
        }
        if let termination = timeline.termination { system[column(termination.time)] = "X" }
        add("System", system, timeline.termination.map { "terminated \($0.code)" } ?? "")
        for lane in folding.visible { addLane(lane) }
        if timeline.lanes.isEmpty { lines.append(label("") + "(no lane to draw)") }
        addBand(folding.finished, what: "finished tasks")
        addBand(folding.troubled, what: "more with a problem")
        lines += timeline.notes.map(Self.printable)
        lines.append(
            "Key: App F foreground, B background, s suspended, X terminated, ? unknown. Background time . in the "
                + "background, = running, E handlers called, | budget gone. System E handlers called, w console, "
                + "n begin refused, x kill the debugger prevented, * note, X termination. Lanes = held, # held to "
                + "the end, + in flight, ~ safety net, r rescued, e expired, - ended by the system; E expiration "
                + "handler called, < handler returned, ! held after handlers, w warning, 2 ended twice, * note, "
                + "X termination. Folded rows: more held at once from . to @.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with control characters (which a terminal would act on) replaced by `?`.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) else {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                result += "?"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private mutating func addAxis() {
        var axis = [Character](repeating: " ", count: columns + 12)
        for (time, anchor) in [(start, 0), ((start + end) / 2, 1), (end, 2)] {
            let text = Array("\(TimelineNumber.seconds(time)) s")
            let position = column(time)
            let first = anchor == 0 ? position : anchor == 1 ? position - text.count / 2 : position - text.count + 1
            for (offset, character) in text.enumerated() where first + offset >= 0 && first + offset < axis.count {
                axis[first + offset] = character
            }
            if columns < 24 || end <= start { break }
        }
        add("", axis)
    }

    private mutating func addLane(_ lane: TimelineLane) {
        var row = blank()
        fill(&row, from: lane.begin, to: lane.end ?? end, with: TimelinePalette.character(lane.ending))
        for mark in lane.marks { row[column(mark.time)] = TimelinePalette.character(mark.kind) }
        if lane.ending == .heldAtTermination, let termination = timeline.termination {
            row[column(termination.time)] = "X"
        }
        let name = TimelinePalette.rowName(lane)
        // A name cut to fit the labels is given whole after the row.
        let whole = name.count > labelWidth - 2 ? lane.label : nil
        let trailer = [TimelinePalette.words(lane.ending), lane.callSite, whole].compactMap { $0 }
        add(name, row, trailer.joined(separator: " · "))
    }

    private mutating func addBand(_ lanes: [TimelineLane], what: String) {
        guard !lanes.isEmpty else { return }
        let band = DensityBand(lanes, start: start, end: end, bins: columns)
        let levels = Array(" .:-=+*#%@")
        let row = band.counts.map { count in
            count == 0 ? " " : levels[max(1, min(levels.count - 1, count * (levels.count - 1) / max(band.peak, 1)))]
        }
        add(
            "\(TimelineNumber.count(lanes.count)) \(what)", row,
            "folded; up to \(TimelineNumber.count(band.peak)) at once")
    }
}
