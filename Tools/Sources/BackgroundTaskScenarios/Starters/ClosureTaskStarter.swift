import BackgroundTaskKit
import BackgroundTaskSimulation

/// The async `withBackgroundTask`: each task is a Swift task whose body waits until the flow ends it.
struct ClosureTaskStarter: TaskStarter {
    let backend: any BackgroundTaskBackend

    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> any RunningTask {
        let running = ClosureRunningTask()
        Task { @MainActor in
            await withBackgroundTask(name, backend: backend, onExpiration: cleanup) {
                running.hasBegun = true
                await running.waitUntilEnded()
            }
            running.isFinished = true
        }
        await yield(until: { running.hasBegun })
        return running
    }
}

@MainActor
private final class ClosureRunningTask: RunningTask {
    var hasBegun = false
    var isFinished = false
    private var endRequested = false
    private var continuation: CheckedContinuation<Void, Never>?

    func waitUntilEnded() async {
        guard !endRequested else { return }
        await withCheckedContinuation { continuation = $0 }
    }

    func end() async {
        endRequested = true
        continuation?.resume()
        continuation = nil
        await yield(until: { self.isFinished })
    }
}

/// Lets other main-actor work run until `condition` holds (bounded, so a bug cannot hang the run).
@MainActor
private func yield(until condition: @MainActor () -> Bool) async {
    for _ in 0..<10_000 where !condition() {
        await Task.yield()
    }
}
