import BackgroundTaskKit
import BackgroundTaskScheduling
import Dispatch
import Foundation

// `ScheduledCost [count]`: the cost of one launched task, from the system's launch handler call to its
// `setTaskCompleted`, with empty work, for each way of handling it; stand-ins play the system (no real time passes).

/// A launched task that counts its completions and wakes the measurement once all have come.
final class StandInTask: LaunchedContinuedProcessingTask, @unchecked Sendable {  // fields under `lock`
    let identifier = "bench.task"
    private let done: Countdown
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    init(done: Countdown) {
        self.done = done
    }

    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) {
        lock.withLock { self.handler = handler }
    }

    func setTaskCompleted(success: Bool) {
        lock.withLock { handler = nil }
        done.tick()
    }

    func reportProgress(completed: Int64, total: Int64) {}
    func updateTitle(_ title: String, subtitle: String) {}
}

/// Counts completions down; `wait()` returns once all came.
final class Countdown: @unchecked Sendable {  // `left` under `lock`
    private let lock = NSLock()
    private var left: Int
    private let finished = DispatchSemaphore(value: 0)

    init(_ count: Int) {
        left = count
    }

    func tick() {
        let last = lock.withLock { () -> Bool in
            left -= 1
            return left == 0
        }
        if last { finished.signal() }
    }

    func wait() { finished.wait() }
}

/// The system's scheduler: keeps the launch handlers and calls them when told; continued jobs start at once.
final class StandInScheduler: TaskSchedulerBackend, ContinuedProcessingScheduling, @unchecked Sendable {
    private let lock = NSLock()  // `handlers` under it
    private var handlers: [String: @Sendable (any LaunchedTask) -> Void] = [:]
    private var continuedHandlers: [String: @Sendable (any LaunchedContinuedProcessingTask) -> Void] = [:]
    var countdown = Countdown(0)

    func register(identifier: String, launchHandler: @escaping @Sendable (any LaunchedTask) -> Void) {
        lock.withLock { handlers[identifier] = launchHandler }
    }

    func submit(_ request: ScheduledTaskRequest) {}
    func cancel(identifier: String) {}
    func cancelAll() {}
    var environment: TaskSchedulerEnvironment { TaskSchedulerEnvironment() }
    var continuedProcessing: (any ContinuedProcessingScheduling)? { self }
    var supportsBackgroundGPU: Bool { false }

    func registerContinuedProcessing(
        identifier: String, launchHandler: @escaping @Sendable (any LaunchedContinuedProcessingTask) -> Void
    ) {
        lock.withLock { continuedHandlers[identifier] = launchHandler }
    }

    func submitContinuedProcessing(_ request: ContinuedProcessingRequest) {
        let handler = lock.withLock { continuedHandlers.removeValue(forKey: request.identifier) }
        handler?(StandInTask(done: countdown))
    }

    /// Launches `identifier` `count` times and waits until every task was completed.
    func launch(_ identifier: String, times count: Int) -> Duration {
        countdown = Countdown(count)
        let handler = lock.withLock { handlers[identifier] }!
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { handler(StandInTask(done: countdown)) }
        countdown.wait()
        return clock.now - start
    }
}

func nanoseconds(_ duration: Duration, per count: Int) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
}

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init).map { max($0, 1) } ?? 20_000
let system = StandInScheduler()
let scheduler = SafeTaskScheduler(backend: system)

// The peer: the handler one writes by hand, correct but with nothing to stop a second completion.
system.register(identifier: "hand-written") { task in
    let work = Task { task.setTaskCompleted(success: true) }
    task.setExpirationHandler {
        work.cancel()
        task.setTaskCompleted(success: false)
    }
}
try scheduler.register("scheduler") {}
try scheduler.register("scheduler-callback") { task in task.complete(success: true) }

print("ScheduledCost: \(count) launches each, empty work, stand-in scheduler (wall time, one run each)")
for name in ["hand-written", "scheduler", "scheduler-callback", "hand-written", "scheduler", "scheduler-callback"] {
    let time = system.launch(name, times: count)
    print(
        name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + String(format: "%8.0f ns/launch", nanoseconds(time, per: count)))
}

// Continued processing: one job at a time, from a task, as a tap would start it.
let jobs = min(count, 5_000)
let continuedTime = await {
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<jobs {
        system.countdown = Countdown(1)
        let request = ContinuedProcessingRequest(identifier: "bench.export.\(index)", title: "Export", subtitle: "")
        _ = try? await scheduler.runContinuedProcessing(request) { progress in progress.update(completed: 1, of: 1) }
    }
    return clock.now - start
}()
print(
    "continued".padding(toLength: 20, withPad: " ", startingAt: 0)
        + String(format: "%8.0f ns/job", nanoseconds(continuedTime, per: jobs)))
