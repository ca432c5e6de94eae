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

/// How many folded lanes were held at once in each bin of equal width across the timeline: the most at any moment of
/// the bin, so a band's height is a true count of concurrent tasks, whatever the bin width.
struct DensityBand {
    /// The most lanes held at once in each bin.
    let counts: [Int]
    /// The most in one bin.
    let peak: Int

    init(_ lanes: [TimelineLane], start: Double, end: Double, bins: Int) {
        let bins = max(bins, 1)
        let span = end > start ? end - start : 1
        // Ends before spikes before begins at the same instant: a task ending as another begins is not concurrent
        // with it; a task of no length counts at its instant.
        var events: [(time: Double, order: Int)] = []
        events.reserveCapacity(lanes.count * 2)
        for lane in lanes {
            let begin = Self.finite(lane.begin, start: start, end: end)
            let finish = max(Self.finite(lane.end ?? end, start: start, end: end), begin)
            if finish > begin {
                events.append((begin, 2))
                events.append((finish, 0))
            } else {
                events.append((begin, 1))
            }
        }
        events.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        var counts = [Int](repeating: 0, count: bins)
        var running = 0
        var next = 0
        for bin in 0..<bins {
            let binEnd = bin == bins - 1 ? Double.infinity : start + span * Double(bin + 1) / Double(bins)
            var most = running
            while next < events.count, events[next].time < binEnd {
                switch events[next].order {
                case 0: running -= 1
                case 1: most = max(most, running + 1)
                default: running += 1
                }
                most = max(most, running)
                next += 1
            }
            counts[bin] = most
        }
        self.counts = counts
        peak = counts.max() ?? 0
    }

    private static func finite(_ time: Double, start: Double, end: Double) -> Double {
        guard time.isFinite else { return time > 0 ? end : start }
        return min(max(time, start), max(end, start))
    }
}
