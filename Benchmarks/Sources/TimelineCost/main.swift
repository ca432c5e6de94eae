import BackgroundTaskKitTesting
import BackgroundTaskTimeline
import Dispatch

// `TimelineCost [assertions]`: the time to draw a run of N assertions (default 10,000) as SVG and as text, folded
// (the default: 30 lanes drawn one by one, the rest in density bands) and unfolded (every lane drawn), with the
// document's size. The run: bursts of 20 short writes every half second, 1 in 200 held to the end (a leak), each with
// its expiry marks, in a background stay whose budget ran out.

/// A run of `count` assertions, as a simulator's log would give it.
func run(of count: Int) -> BackgroundTaskTimeline {
    var lanes: [TimelineLane] = []
    lanes.reserveCapacity(count)
    for index in 0..<count {
        let begin = Double(index / 20) * 0.5
        if index % 200 == 199 {
            lanes.append(
                TimelineLane(
                    name: "Leaked write \(index)", identifier: String(index + 1),
                    callSite: "App/Cache.swift:\(40 + index % 7) (write(_:))", begin: begin, end: nil,
                    ending: .heldAtTermination,
                    marks: [
                        TimelineMark(
                            kind: .expirationHandlerCalled, time: begin + 26, text: "expiration handler called"),
                        TimelineMark(kind: .heldAfterHandlers, time: begin + 26, text: "held after handlers"),
                    ]))
        } else {
            lanes.append(
                TimelineLane(
                    name: "Write \(index)", identifier: String(index + 1), callSite: "App/Cache.swift:31 (write(_:))",
                    begin: begin, end: begin + 0.4, ending: .ended))
        }
    }
    let end = Double(count / 20) * 0.5 + 30
    return BackgroundTaskTimeline(
        title: "\(count) cache writes", subtitle: "terminated 0x8badf00d", end: end, lanes: lanes,
        appStates: [
            TimelineStateSpan(state: .foreground, from: 0, to: 5),
            TimelineStateSpan(state: .background, from: 5, to: end),
        ],
        budgets: [
            TimelineBudget(
                seconds: 30, from: 5, to: end, runs: [.init(from: 5, to: 35)], handlersCalledAt: 31, goneAt: 35)
        ],
        moments: [TimelineMoment(kind: .handlersCalled, time: 31, text: "background time ran out")],
        termination: TimelineTermination(time: end, code: "0x8badf00d", reason: "assertionsHeldAfterExpiration"))
}

/// The same shape of run on the simulator: `count` raw begins in the background, in bursts of 20 every half second,
/// all ended but one in 200, beside one assertion held for the whole run; the simulator's assertion limit raised and
/// its budget unlimited, so that the run is not killed.
@MainActor
func simulatedRun(of count: Int) -> BackgroundTaskSimulator {
    var configuration = SimulatorConfiguration()
    configuration.assertionLimit = count + 1
    configuration.backgroundTimeBudget = .infinity
    configuration.longRunningTaskWarningAge = .infinity
    let simulator = BackgroundTaskSimulator(configuration: configuration)
    simulator.enterBackground()
    // Held for the whole run, so that the app is never suspended between bursts.
    let keepAlive = simulator.beginBackgroundTask(named: "Sync", expirationHandler: nil)
    var open: [BackgroundTaskIdentifier] = []
    for index in 0..<count {
        if index % 20 == 0 {
            for identifier in open { simulator.endBackgroundTask(identifier) }
            open.removeAll()
            simulator.advance(by: 0.5)
        }
        guard let identifier = simulator.beginBackgroundTask(named: "Write \(index)", expirationHandler: nil) else {
            continue
        }
        if index % 200 != 199 { open.append(identifier) }
    }
    for identifier in open { simulator.endBackgroundTask(identifier) }
    if let keepAlive { simulator.endBackgroundTask(keepAlive) }
    return simulator
}

/// The median wall time of `rounds` calls, in milliseconds, and the last result's size in bytes.
func measure(rounds: Int, _ body: () -> String) -> (milliseconds: Double, bytes: Int) {
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let output = body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        bytes = output.utf8.count
    }
    return (times.sorted()[times.count / 2], bytes)
}

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init).map { max($0, 1) } ?? 10_000
let timeline = run(of: count)
let unfolded = TimelineRenderingOptions(maximumLanes: .max)
print("TimelineCost: \(count) assertions, \(timeline.heldLanes.count) held to the end; median of 5 runs")
for (label, body) in [
    ("SVG, folded (default)", { timeline.svg() }), ("text, folded (default)", { timeline.text() }),
    ("SVG, every lane drawn", { timeline.svg(options: unfolded) }),
    ("text, every lane drawn", { timeline.text(options: unfolded) }),
] as [(String, () -> String)] {
    let (milliseconds, bytes) = measure(rounds: 5, body)
    let padded = label + String(repeating: " ", count: max(24 - label.count, 0))
    print("  \(padded) \(Int(milliseconds.rounded())) ms, \(bytes / 1024) KiB")
}
MainActor.assumeIsolated {
    let simulator = simulatedRun(of: count)
    let (milliseconds, bytes) = measure(rounds: 5) { simulator.timeline(title: "simulated").svg() }
    print(
        "  simulator log -> SVG    \(Int(milliseconds.rounded())) ms, \(bytes / 1024) KiB "
            + "(\(simulator.log.count) log entries: building the timeline from the log, then drawing it)")
}
