import BackgroundTaskPromiseChecking
import Foundation

// The long run of the randomized checker of the package's promise.
//
//     swift run -c release promise-check [steps] [seed]
//
// Default: 1,000,000 steps from seed 1. Prints the rate; exits 1 with a Swift reproduction when the
// promise breaks.

let arguments = CommandLine.arguments.dropFirst()
let steps = arguments.first.flatMap(Int.init) ?? 1_000_000
let seed = arguments.dropFirst().first.flatMap(UInt64.init) ?? 1
guard steps > 0 else {
    FileHandle.standardError.write(Data("usage: promise-check [steps > 0] [seed]\n".utf8))
    exit(2)
}

if let replay = ProcessInfo.processInfo.environment["PROMISE_REPLAY"].flatMap(UInt64.init) {
    // PROMISE_REPLAY=<seed>: runs that seed's run ten times, to see whether a violation reproduces;
    // with PROMISE_TRACE=1 too, prints each operation and what the simulator logged while it ran.
    let trace = ProcessInfo.processInfo.environment["PROMISE_TRACE"] == "1"
    for outcome in await PromiseChecker.replay(seed: replay, times: 10, trace: trace) { print(outcome ?? "kept") }
    exit(0)
}

let start = Date()
var summary = PromiseChecker.Summary()
var done = 0
var nextSeed = seed
// In batches, so that progress shows on long runs.
while done < steps, summary.violation == nil {
    let batch = await PromiseChecker.check(steps: min(100_000, steps - done), seed: nextSeed)
    done += batch.steps
    summary.runs += batch.runs
    summary.steps += batch.steps
    summary.unavoidableTerminations += batch.unavoidableTerminations
    summary.violation = batch.violation
    nextSeed &+= UInt64(batch.runs)
    let seconds = Date().timeIntervalSince(start)
    print("\(summary.steps) steps, \(summary.runs) runs, \(Int(Double(summary.steps) / max(seconds, 1))) steps/s")
    fflush(nil)  // all streams: progress shows when the output is a file
}
let total = Date().timeIntervalSince(start)
print(
    "promise-check: \(summary.steps) steps in \(summary.runs) runs (seeds \(seed)…), "
        + String(format: "%.1f s, %.0f steps/s; ", total, Double(summary.steps) / max(total, 0.001))
        + "\(summary.unavoidableTerminations) runs ended by an unavoidable termination"
)
if let violation = summary.violation {
    print(violation)
    exit(1)
}
print("promise kept")
