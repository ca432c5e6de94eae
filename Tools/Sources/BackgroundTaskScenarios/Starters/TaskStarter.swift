import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

/// Begins background tasks one particular way (raw calls written correctly, or one of the faces), so
/// that a scenario's correct flow is written once and run with every face.
@MainActor
public protocol TaskStarter {
    /// Begins a task; `cleanup` runs on the main actor if it expires.
    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> any RunningTask
}

extension TaskStarter {
    /// Begins a task without an expiration cleanup.
    public func start(_ name: String) async -> any RunningTask {
        await start(name, cleanup: {})
    }
}

/// A task a ``TaskStarter`` began.
@MainActor
public protocol RunningTask: AnyObject {
    /// Ends the task; calling it again does nothing.
    func end() async

    /// Ends the task from another thread (a completion on a queue of the app's), not waiting for it;
    /// faces that can only end where they began end here, on the main actor.
    func endFromAnotherThread() async
}

extension RunningTask {
    /// Ends on the main actor: the hand-written wrapper and the closure face end where they began.
    public func endFromAnotherThread() async {
        await end()
    }
}

/// The raw calls written correctly: ``HandWrittenTask``.
struct HandWrittenStarter: TaskStarter {
    let backend: RawBackend

    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> any RunningTask {
        HandWrittenRunningTask(HandWrittenTask(name, backend: backend, cleanup: cleanup))
    }
}

@MainActor
private final class HandWrittenRunningTask: RunningTask {
    let task: HandWrittenTask

    init(_ task: HandWrittenTask) {
        self.task = task
    }

    func end() async {
        task.end()
    }
}

/// ``SafeBackgroundTask``, or a ``BackgroundTaskManager``'s tasks (which are safe tasks too).
struct SafeTaskStarter: TaskStarter {
    let backend: any BackgroundTaskBackend
    var manager: BackgroundTaskManager?

    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> any RunningTask {
        guard let manager else {
            return SafeRunningTask(SafeBackgroundTask.begin(name, backend: backend, onExpiration: cleanup))
        }
        do {
            return SafeRunningTask(try manager.beginTask(name, onExpiration: cleanup))
        } catch {
            return RefusedRunningTask()  // the work runs without background time
        }
    }
}

@MainActor
private final class SafeRunningTask: RunningTask {
    let task: SafeBackgroundTask

    init(_ task: SafeBackgroundTask) {
        self.task = task
    }

    func end() async {
        task.end()
    }

    func endFromAnotherThread() async {
        Thread { [task] in task.end() }.start()
    }
}

/// A task the manager refused: there is nothing to end.
@MainActor
private final class RefusedRunningTask: RunningTask {
    func end() async {}
}

/// ``ScopedBackgroundTask``, owned by the running-task object until ended.
struct ScopedTaskStarter: TaskStarter {
    let backend: any BackgroundTaskBackend

    func start(_ name: String, cleanup: @escaping @MainActor @Sendable () -> Void) async -> any RunningTask {
        ScopedRunningTask(ScopedBackgroundTask(name, backend: backend, onExpiration: cleanup))
    }
}

@MainActor
private final class ScopedRunningTask: RunningTask {
    var task: ScopedBackgroundTask?

    init(_ task: consuming ScopedBackgroundTask) {
        self.task = consume task
    }

    func end() async {
        task.take()?.end()
    }

    func endFromAnotherThread() async {
        guard let task = task.take() else { return }
        let box = ScopedTaskBox(task)
        Thread { box.end() }.start()
    }
}

/// A scoped task handed to another thread, which alone uses it from then on.
private final class ScopedTaskBox: @unchecked Sendable {  // handed over once; one thread at a time uses it
    private var task: ScopedBackgroundTask?

    init(_ task: consuming ScopedBackgroundTask) {
        self.task = consume task
    }

    func end() {
        task.take()?.end()
    }
}
