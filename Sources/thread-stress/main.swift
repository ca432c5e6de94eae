import BackgroundTaskKit
import Foundation

// The thread stress: six real threads begin, end, hand over and drop tasks of every face (and launched BGTasks of
// SafeTaskScheduler's) while the main thread expires everything, round after round, with the default leak handler in
// place.
//
//     swift run -c release thread-stress [rounds] [operations per thread per round]
//
// Default: 40 rounds of 2,000 operations per thread. Every dropped task is a leak that the safety net
// ends and reports, one line on standard error (the default handler); standard output ends with
// `dropped=N`, the number of lines to expect there. Exits 1 when the books break the promise: an
// assertion not ended exactly once, one held after the handlers of its expiry returned, or a launched task not
// completed exactly once.

let arguments = CommandLine.arguments.dropFirst()
let rounds = arguments.first.flatMap(Int.init) ?? 40
let operations = arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
guard rounds > 0, operations > 0 else {
    FileHandle.standardError.write(Data("usage: thread-stress [rounds > 0] [operations per thread > 0]\n".utf8))
    exit(2)
}

let threadCount = 6
let backend = ExpiringBooksBackend()
let workers = StressWorkers(backend: backend, operations: operations)
let start = Date()
var failures: [String] = []

for round in 0..<rounds {
    let finished = DispatchSemaphore(value: 0)
    for thread in 0..<threadCount {
        let seed = UInt64(round * threadCount + thread + 1)
        Thread {
            workers.work(seed: seed)
            finished.signal()
        }
        .start()
    }
    // The expiry lands while the threads run: a little after they start, at a different moment each round.
    Thread.sleep(forTimeInterval: 0.001 * Double(round % 8))
    let held = backend.expireAll()
    if !held.isEmpty { failures.append("round \(round): held after the expiry's handlers returned: \(held)") }
    workers.system.expireAll()  // launched BGTasks expire too, racing their completions
    for _ in 0..<threadCount { finished.wait() }
    workers.endEverything()
    let miscompleted = workers.system.checkAndReset()
    if !miscompleted.isEmpty { failures.append("round \(round): \(miscompleted.prefix(5))") }
    let books = backend.snapshot
    if books.running != 0 { failures.append("round \(round): \(books.running) assertion(s) never ended") }
}

let books = backend.snapshot
if !books.badEnds.isEmpty { failures.append("ended twice or never begun: \(books.badEnds.prefix(20))") }
if books.begun != books.ended { failures.append("begun \(books.begun), ended \(books.ended)") }
print(
    "thread-stress: \(rounds) rounds, \(threadCount) threads, \(rounds * threadCount * operations) operations, "
        + "\(books.begun) assertions, " + String(format: "%.1f s", Date().timeIntervalSince(start))
)
for failure in failures { print("FAILED: \(failure)") }
print("dropped=\(workers.dropped.value)")
exit(failures.isEmpty ? 0 : 1)
