import BackgroundTaskKit
import BackgroundTaskScheduling
import BackgroundTaskSimulation
import Foundation

/// The scheduled tasks of a ``PromiseWorld``: a `SafeTaskScheduler` over its simulator, with an async refresh task
/// whose work runs until the checker finishes it (or an expiry cancels it), a callback processing task whose
/// `SafeScheduledTask`s the checker completes or drops, and continued-processing jobs it stops. Every task the system
/// launches must be completed exactly once.
@MainActor
final class PromiseScheduledTasks {
    static let refresh = "promise.refresh"
    static let cleanup = "promise.cleanup"
    static let continued = "promise.export"

    /// Work waiting to be finished: it returns (`true`) or throws (`false`) once told.
    private final class Work: Sendable {
        private let outcome = Locked<Bool?>(nil)
        var told: Bool? { outcome.value }
        func finish(success: Bool) { outcome.withLock { $0 = $0 ?? success } }
    }

    private struct Failed: Error {}

    private let simulator: BackgroundTaskSimulator
    private let scheduler: SafeTaskScheduler
    private let works = Locked<[Work]>([])
    private let callbacks = Locked<[SafeScheduledTask]>([])
    private var nextJob = 0
    private var jobs: [Task<Void, Never>] = []
    private let jobsRunning = Locked(0)

    init(simulator: BackgroundTaskSimulator) {
        self.simulator = simulator
        scheduler = SafeTaskScheduler(backend: simulator, fallbackBackend: simulator)
        let works = works
        let callbacks = callbacks
        try? scheduler.register(Self.refresh, windDownLimit: 0.2) {
            let work = Work()
            works.withLock { $0.append(work) }
            try await Self.run(work)
        }
        try? scheduler.register(Self.cleanup) { task in callbacks.withLock { $0.append(task) } }
    }

    /// Runs until told, or until cancelled; throws when told to fail or cancelled.
    private nonisolated static func run(_ work: Work) async throws {
        while work.told == nil, !Task.isCancelled {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { continuation.resume() }
            }
        }
        if work.told != true { throw Failed() }
    }

    /// Submits a request (refresh, or the callback processing task) and lets the system launch it.
    func launch(callback: Bool) {
        guard simulator.termination == nil else { return }
        let request: ScheduledTaskRequest = callback ? .processing(Self.cleanup) : .appRefresh(Self.refresh)
        guard (try? scheduler.submit(request)) != nil else { return }
        simulator.runScheduledTask(request.identifier)
    }

    /// Finishes the oldest running work or completes the oldest kept callback task.
    func finish(success: Bool, callback: Bool) {
        if callback {
            let task = callbacks.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            task?.complete(success: success)
        } else {
            let work = works.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            work?.finish(success: success)
        }
    }

    /// Lets go of the oldest kept callback task without completing it: the safety net completes it.
    func drop() {
        _ = callbacks.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Starts a continued-processing job from the foreground; its work runs until finished or stopped.
    func startContinuedJob() {
        guard simulator.appState == .foreground, simulator.termination == nil else { return }
        let request = ContinuedProcessingRequest(
            identifier: "\(Self.continued).\(nextJob)", title: "Export \(nextJob)", subtitle: "")
        nextJob += 1
        let (scheduler, works, running) = (scheduler, works, jobsRunning)
        running.withLock { $0 += 1 }
        jobs.append(
            Task.detached {
                _ = try? await scheduler.runContinuedProcessing(request, windDownLimit: 0.2) { progress in
                    progress.update(completed: 1, of: 2)
                    let work = Work()
                    works.withLock { $0.append(work) }
                    try await Self.run(work)
                }
                running.withLock { $0 -= 1 }
            })
    }

    /// The person stops the oldest running continued-processing job.
    func stopContinuedJob() {
        guard let identifier = simulator.runningScheduledTasks.first(where: { $0.hasPrefix(Self.continued) }) else {
            return
        }
        simulator.stopContinuedProcessing(identifier)
    }

    /// A broken promise in `event`, if it is one: a task completed twice.
    static func violation(in event: SimulatorEvent) -> String? {
        switch event {
        case .scheduledTaskCompletionIgnored(let identifier): "launched task \(identifier) was completed twice"
        case .scheduledTaskExpired(let identifier, false): "launched task \(identifier) had no expiration handler"
        default: nil
        }
    }

    /// Finishes every work, completes every kept task, lets queued jobs start and finish (at most 5 s, then the rest
    /// are cancelled), and checks that each launched task was completed exactly once.
    func finish() async -> String? {
        var deadline = Date(timeIntervalSinceNow: 5)
        var cancelled = false
        while jobsRunning.value > 0 || !simulator.runningScheduledTasks.isEmpty {
            guard simulator.termination == nil else { break }
            for work in works.withLock({ $0 }) { work.finish(success: true) }
            for task in callbacks.withLock({ $0 }) { task.complete(success: true) }
            simulator.advance(by: 0)  // a queued job starts once there is room
            if Date() >= deadline {
                guard !cancelled else { return "a continued-processing job never returned" }
                for job in jobs { job.cancel() }
                cancelled = true
                deadline = Date(timeIntervalSinceNow: 2)
            }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        guard simulator.termination == nil else { return nil }
        var launches: [String: Int] = [:]
        var completions: [String: Int] = [:]
        for event in simulator.events {
            switch event {
            case .scheduledTaskLaunched(let identifier): launches[identifier, default: 0] += 1
            case .scheduledTaskCompleted(let identifier, _): completions[identifier, default: 0] += 1
            default: continue
            }
        }
        if let (identifier, count) = launches.first(where: { completions[$0.key] != $0.value }) {
            return "\(identifier) was launched \(count) times and completed \(completions[identifier] ?? 0) times"
        }
        return nil
    }
}
