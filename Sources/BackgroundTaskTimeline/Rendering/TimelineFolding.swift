/// Which lanes a picture draws one by one and which it folds into density bands.
struct TimelineFolding {
    /// The lanes drawn one by one, in begin order.
    var visible: [TimelineLane] = []
    /// Lanes that ended cleanly, folded.
    var finished: [TimelineLane] = []
    /// Lanes with a problem that did not fit, folded.
    var troubled: [TimelineLane] = []

    /// Keeps every lane when they fit; otherwise keeps the lanes with a problem (the worst first) and the longest
    /// clean ones, up to `maximum`.
    init(_ lanes: [TimelineLane], maximum: Int, end: Double) {
        guard lanes.count > maximum else {
            visible = lanes
            return
        }
        var problems: [(index: Int, lane: TimelineLane)] = []
        var clean: [(index: Int, lane: TimelineLane)] = []
        for (index, lane) in lanes.enumerated() {
            if lane.hasProblem { problems.append((index, lane)) } else { clean.append((index, lane)) }
        }
        problems.sort { (Self.severity($0.lane), $0.index) < (Self.severity($1.lane), $1.index) }
        let keptProblems = problems.prefix(maximum)
        troubled = problems.dropFirst(maximum).sorted { $0.index < $1.index }.map(\.lane)
        let room = maximum - keptProblems.count
        clean.sort { ($1.lane.heldTime(until: end), $0.index) < ($0.lane.heldTime(until: end), $1.index) }
        let keptClean = clean.prefix(room)
        finished = clean.dropFirst(room).sorted { $0.index < $1.index }.map(\.lane)
        visible = (Array(keptProblems) + Array(keptClean)).sorted { $0.index < $1.index }.map(\.lane)
    }

    /// 0 for what gets an app killed, 1 for leaks the app survived, 2 for the rest.
    private static func severity(_ lane: TimelineLane) -> Int {
        if lane.ending == .heldAtTermination || lane.marks.contains(where: { $0.kind == .heldAfterHandlers }) {
            return 0
        }
        return lane.ending == .stillHeld || lane.ending == .endedBySafetyNet ? 1 : 2
    }
}

/// How many folded lanes were held at each moment: the counts per bin of equal width across the timeline.
struct DensityBand {
    /// How many lanes overlapped each bin.
    let counts: [Int]
    /// The most in one bin.
    let peak: Int

    init(_ lanes: [TimelineLane], start: Double, end: Double, bins: Int) {
        let bins = max(bins, 1)
        let span = end > start ? end - start : 1
        var steps = [Int](repeating: 0, count: bins + 1)
        for lane in lanes {
            let first = Self.bin(lane.begin, start: start, span: span, bins: bins)
            let last = Self.bin(lane.end ?? end, start: start, span: span, bins: bins)
            steps[min(first, last)] += 1
            steps[max(first, last) + 1] -= 1
        }
        var counts = [Int](repeating: 0, count: bins)
        var running = 0
        var peak = 0
        for index in 0..<bins {
            running += steps[index]
            counts[index] = running
            peak = max(peak, running)
        }
        self.counts = counts
        self.peak = peak
    }

    private static func bin(_ time: Double, start: Double, span: Double, bins: Int) -> Int {
        guard time.isFinite else { return time > 0 ? bins - 1 : 0 }
        let position = (time - start) / span * Double(bins)
        return min(max(Int(position.rounded(.down)), 0), bins - 1)
    }
}
