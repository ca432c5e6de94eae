import BackgroundTaskDiagnostics
import BackgroundTaskKit
import Foundation

// The diagnostics product, as an app with Xcode 26's defaults uses it (outside Sources/, which the
// shared type-check compiles against the core alone).

/// An observer that keeps state: events arrive on the main actor, in order.
final class TaskLog: MainActorBackgroundTaskObserver {
    private(set) var lines: [String] = []

    func backgroundTaskEventOccurred(_ event: BackgroundTaskEvent) {
        lines.append("\(event.kind) \(event.name ?? "")")
    }
}

/// Diagnostics and leak reporting at launch.
enum Launch {
    /// A manager whose tasks are recorded, its events going to `log`.
    static func diagnosedManager(
        backend: (any BackgroundTaskBackend)?,
        configuration: BackgroundTaskManager.Configuration,
        log: TaskLog
    ) -> (BackgroundTaskManager, BackgroundTaskObserverHandle?) {
        BackgroundTaskLeakReporting.handler = { leak in print("leak:", leak) }
        let manager = BackgroundTaskManager(
            backend: backend, configuration: configuration, diagnostics: .init(staleTaskAge: 30))
        return (manager, manager.diagnostics?.addObserver(log))
    }

    static func diagnosing(_ backend: any BackgroundTaskBackend, log: TaskLog) -> DiagnosingBackend {
        let diagnostics = DiagnosingBackend(wrapping: backend, configuration: .init(staleTaskAge: 30))
        diagnostics.addObserver(log)
        diagnostics.addObserver { event in print(event.kind) }
        return diagnostics
    }
}
