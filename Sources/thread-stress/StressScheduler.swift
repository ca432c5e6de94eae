import BackgroundTaskKit
import BackgroundTaskScheduling
import Foundation

/// The system's `BGTaskScheduler`, for the stress: launches tasks on the threads that ask, keeps every launched task,
/// and fires their expiration handlers from the main thread while the threads complete them, drop them or hand them
/// over; then checks that each was completed exactly once.
final class StressScheduler: TaskSchedulerBackend, Sendable {
    /// A launched task (`BGTask`) that counts its completions.
    final class Launched: LaunchedTask, Sendable {
        private struct State {
            var handler: (@Sendable () -> Void)?
            var completions = 0
        }
        let identifier: String
        private let state = Locked(State())

        init(identifier: String) {
            self.identifier = identifier
        }

        func setExpirationHandler(_ handler: (@Sendable () -> Void)?) {
            state.withLock { $0.handler = handler }
        }

        func setTaskCompleted(success: Bool) {
            state.withLock { state in
                state.completions += 1
                state.handler = nil  // cleared once the task completes, as the system does
            }
        }

        /// The system's expiry: the handler, once, cleared as it is called.
        func expire() {
            let handler = state.withLock { state in
                defer { state.handler = nil }
                return state.handler
            }
            handler?()
        }

        var completions: Int { state.withLock { $0.completions } }
    }

    private struct Registrations {
        var handlers: [String: @Sendable (any LaunchedTask) -> Void] = [:]
    }
    private let registrations = Locked(Registrations())
    private let launched = Locked<[Launched]>([])

    func register(identifier: String, launchHandler: @escaping @Sendable (any LaunchedTask) -> Void) {
        registrations.withLock { $0.handlers[identifier] = launchHandler }
    }

    func submit(_ request: ScheduledTaskRequest) {}
    func cancel(identifier: String) {}
    func cancelAll() {}
    var environment: TaskSchedulerEnvironment { TaskSchedulerEnvironment() }

    /// Launches a task of `identifier` on this thread.
    func launch(_ identifier: String) {
        guard let handler = registrations.withLock({ $0.handlers[identifier] }) else { return }
        let task = Launched(identifier: identifier)
        launched.withLock { $0.append(task) }
        handler(task)
    }

    /// Expires every task launched so far (from the main thread, racing the threads).
    func expireAll() {
        for task in launched.withLock({ $0 }) { task.expire() }
    }

    /// Waits (at most 10 s) until every launched task was completed, then returns the tasks not completed exactly
    /// once, and forgets them all.
    func checkAndReset() -> [String] {
        let deadline = Date(timeIntervalSinceNow: 10)
        while launched.withLock({ $0.contains { $0.completions == 0 } }), Date() < deadline {
            usleep(1_000)
        }
        let tasks = launched.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        return tasks.filter { $0.completions != 1 }.map { "\($0.identifier) completed \($0.completions) times" }
    }
}
