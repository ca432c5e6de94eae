import BackgroundTaskKitTesting
import Foundation

/// Starts tasks with one of the library's faces on a simulator, so that a test written once runs with each:
/// `safe`, `scoped`, `closure` (the `async` `withBackgroundTask`), `manager` and `manager-coalesced`.
@MainActor
struct FaceDriver {
    let face: String
    let simulator: BackgroundTaskSimulator
    private let manager: BackgroundTaskManager?

    init(_ face: String, _ simulator: BackgroundTaskSimulator) {
        self.face = face
        self.simulator = simulator
        var configuration = BackgroundTaskManager.Configuration()
        configuration.coalescesAssertions = face == "manager-coalesced"
        manager =
            face.hasPrefix("manager") ? BackgroundTaskManager(backend: simulator, configuration: configuration) : nil
    }

    /// Begins a task named `name` whose expiration cleanup is `cleanup`.
    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void = {}) async -> StartedTask {
        switch face {
        case "scoped":
            let held = HeldScopedTask(ScopedBackgroundTask(name, backend: simulator, onExpiration: cleanup))
            return StartedTask { held.end() }
        case "closure":
            return await startClosure(name, cleanup: cleanup)
        default:
            guard let manager else {
                let task = SafeBackgroundTask.begin(name, backend: simulator, onExpiration: cleanup)
                return StartedTask { task.end() }
            }
            let task = try? manager.beginTask(name, onExpiration: cleanup)  // refused: nothing to end
            return StartedTask { task?.end() }
        }
    }

    /// `withBackgroundTask` around a body that waits until the test ends it.
    private func startClosure(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> StartedTask {
        let body = WaitingBody()
        Task { @MainActor [simulator] in
            await withBackgroundTask(name, backend: simulator, onExpiration: cleanup) { await body.wait() }
            body.finished = true
        }
        await yield { body.started }
        return StartedTask {
            body.release()
            await yield { body.finished }
        }
    }
}

/// A task a ``FaceDriver`` started; `end()` ends it, and ending again does nothing.
@MainActor
struct StartedTask {
    private let ending: @MainActor () async -> Void

    init(_ ending: @escaping @MainActor () async -> Void) {
        self.ending = ending
    }

    func end() async {
        await ending()
    }
}

/// Holds a scoped task until the test ends it.
@MainActor
private final class HeldScopedTask {
    private var task: ScopedBackgroundTask?

    init(_ task: consuming ScopedBackgroundTask) {
        self.task = consume task
    }

    func end() {
        task.take()?.end()
    }
}

/// The body of a `withBackgroundTask` that runs until released.
@MainActor
private final class WaitingBody {
    var started = false
    var finished = false
    private var released = false
    private var continuation: CheckedContinuation<Void, Never>?

    func wait() async {
        started = true
        guard !released else { return }
        await withCheckedContinuation { continuation = $0 }
    }

    func release() {
        released = true
        continuation?.resume()
        continuation = nil
    }
}

/// Lets other main-actor work run until `condition` holds, a bounded number of times.
@MainActor
private func yield(until condition: @MainActor () -> Bool) async {
    for _ in 0..<10_000 where !condition() {
        await Task.yield()
    }
}
