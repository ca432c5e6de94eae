import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskSimulation
import Foundation

extension Scenario {
    /// The most frequent race in public code: an upload's completion, on the uploader's own queue,
    /// checks the shared identifier and ends it, while the expiration handler, on the main thread,
    /// ends it and resets it. When the handler runs between the queue's check and its end, the end
    /// reaches the system twice: iOS prints "Can't end BackgroundTask". `.holdOffMainCalls(.ends)`
    /// places the handler exactly there, every run.
    static let checkThenEndRace = Scenario(
        id: "check-then-end-race",
        summary: "A queue checks the identifier, the handler ends it, then the queue ends it again.",
        faults: [.holdOffMainCalls(.ends)],
        naive: { simulator, backend in
            let uploader = NaiveQueueUploader(backend: backend)
            uploader.start("Upload photo")
            simulator.enterBackground()
            simulator.advance(by: 20)
            uploader.finishOnQueue()  // checks, then ends: held just before the end
            _ = try? await simulator.waitForHeldCalls(1, timeout: 2)
            simulator.advance(by: 20)  // the handler at 26 s ends it first
        },
        flow: { simulator, tasks in
            let task = await tasks.start("Upload photo")
            simulator.enterBackground()
            simulator.advance(by: 20)
            await task.endFromAnotherThread()  // the completion, on the uploader's queue
            _ = try? await simulator.waitForHeldCalls(1, timeout: 0.2)
            simulator.advance(by: 20)
        }
    )
}

/// Keeps its identifier in a property that the handler (main thread) and the completion (its queue)
/// both check and end, without a lock.
private final class NaiveQueueUploader: @unchecked Sendable {  // `identifier` is shared unguarded: the bug
    let begin: RawBackend
    let system: DiagnosingBackend
    var identifier = BackgroundTaskIdentifier(rawValue: 0)
    let queue = DispatchQueue(label: "uploader")

    @MainActor init(backend: RawBackend) {
        begin = backend
        system = backend.diagnostics
    }

    @MainActor func start(_ name: String) {
        identifier =
            begin.beginBackgroundTask(named: name) { [self] in
                system.endBackgroundTask(identifier)
                identifier = BackgroundTaskIdentifier(rawValue: 0)
            } ?? BackgroundTaskIdentifier(rawValue: 0)
    }

    func finishOnQueue() {
        queue.async { [self] in
            if identifier.rawValue != 0 {
                system.endBackgroundTask(identifier)
                identifier = BackgroundTaskIdentifier(rawValue: 0)
            }
        }
    }
}
