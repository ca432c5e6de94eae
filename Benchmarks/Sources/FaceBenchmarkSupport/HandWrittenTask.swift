import BackgroundTaskKit
import Foundation

/// The peer the faces are measured against: the smallest correct wrapper one would write by hand.
///
/// One object per assertion, begun in `init` with an expiration handler that ends it, ended exactly
/// once by whichever comes first of ``end()``, the handler and `deinit`. The handler may run before
/// `beginBackgroundTask` has returned, so the identifier is published under the lock and `init` ends
/// the assertion itself when the handler got there first. The handler captures `self` strongly, as
/// the library's engine does, so that it costs no weak-reference side table.
///
/// ```swift
/// let task = HandWrittenTask("Save", backend: UnlimitedBackend())
/// save()
/// task.end()
/// ```
public final class HandWrittenTask: @unchecked Sendable {  // `ended` and `identifier` only change under `lock`
    private let backend: any BackgroundTaskBackend
    private let lock = NSLock()
    private var ended = false
    private var identifier: BackgroundTaskIdentifier?

    /// Begins the assertion.
    ///
    /// - Parameters:
    ///   - name: The task's name.
    ///   - backend: The backend that grants the assertion.
    public init(_ name: String, backend: any BackgroundTaskBackend) {
        self.backend = backend
        let granted = backend.beginBackgroundTask(named: name) { [self] in end() }
        lock.lock()
        let expiredMeanwhile = ended
        if !expiredMeanwhile { identifier = granted }
        lock.unlock()
        if expiredMeanwhile, let granted { backend.endBackgroundTask(granted) }
    }

    /// Ends the assertion; only the first call does anything.
    public func end() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        let identifier = identifier
        lock.unlock()
        if let identifier { backend.endBackgroundTask(identifier) }
    }

    deinit {
        end()
    }
}
