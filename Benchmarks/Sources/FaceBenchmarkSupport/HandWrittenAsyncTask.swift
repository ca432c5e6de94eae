import BackgroundTaskKit
import Foundation

/// The peer of the `async` `withBackgroundTask`: the smallest wrapper with the same promise, written by
/// hand.
///
/// The assertion is begun before the call first suspends; the body runs in a task of its own (an
/// unstructured `Task`, the usual hand-written form) that an expiry cancels, whether the expiry comes
/// before or after that task exists; a cancellation of the caller is passed on to it; the assertion
/// ends exactly once, when the body returns or in the handler. One object and one lock.
///
/// ```swift
/// await HandWrittenAsyncTask.run("Sync", backend: UnlimitedBackend()) { await sync() }
/// ```
public final class HandWrittenAsyncTask: @unchecked Sendable {  // state only under `lock`
    private let backend: any BackgroundTaskBackend
    private let lock = NSLock()
    private var ended = false
    private var identifier: BackgroundTaskIdentifier?
    private var body: Task<Void, Never>?

    private init(backend: any BackgroundTaskBackend) {
        self.backend = backend
    }

    /// Runs `body` inside a background task, as `withBackgroundTask` does.
    ///
    /// - Parameters:
    ///   - name: The task's name.
    ///   - backend: The backend that grants the assertion.
    ///   - body: The work, cancelled if time runs out.
    public static func run(
        _ name: String,
        backend: any BackgroundTaskBackend,
        _ body: @escaping @Sendable () async -> Void
    ) async {
        let task = HandWrittenAsyncTask(backend: backend)
        task.begin(name)
        let child = Task(operation: body)
        task.attach(child)
        await withTaskCancellationHandler {
            await child.value
        } onCancel: {
            child.cancel()
        }
        task.end(cancelling: false)
    }

    /// Begins the assertion; ends it at once if the handler came before the begin returned.
    private func begin(_ name: String) {
        let granted = backend.beginBackgroundTask(named: name) { [self] in expire() }
        lock.lock()
        let expiredMeanwhile = ended
        if !expiredMeanwhile { identifier = granted }
        lock.unlock()
        if expiredMeanwhile, let granted { backend.endBackgroundTask(granted) }
    }

    /// The body's task exists: cancelled at once if the expiry came first.
    private func attach(_ child: Task<Void, Never>) {
        lock.lock()
        let cancelNow = ended
        if !cancelNow { body = child }
        lock.unlock()
        if cancelNow { child.cancel() }
    }

    /// The handler: cancels the body and ends the assertion.
    private func expire() {
        end(cancelling: true)
    }

    /// Ends the assertion once; with `cancelling`, cancels the body's task too.
    private func end(cancelling: Bool) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        let identifier = identifier
        let body = body
        self.body = nil
        lock.unlock()
        if cancelling { body?.cancel() }
        if let identifier { backend.endBackgroundTask(identifier) }
    }
}
