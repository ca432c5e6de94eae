import BackgroundTaskKit
import Foundation

/// A backend that grants every assertion and expires them all when told to: what the expiry benchmark
/// needs and `UnlimitedBackend` cannot do.
///
/// It keeps each assertion's expiration handler until the assertion ends. ``expireAll()`` calls, in
/// begin order, the handler of every assertion still running when its turn comes, as the system does:
/// an assertion that an earlier handler ended is not expired again.
///
/// ```swift
/// let backend = ExpirableBackend()
/// let manager = BackgroundTaskManager(backend: backend)
/// let task = try manager.beginTask("Upload")
/// backend.expireAll()  // on the main actor: the manager ends `task` inside the handler
/// ```
public final class ExpirableBackend: BackgroundTaskBackend, @unchecked Sendable {  // state only under `lock`
    /// A handler kept in an array: inside a struct, so that storing and taking it allocates nothing.
    private struct Handler {
        let run: @MainActor @Sendable () -> Void
    }

    private let lock = NSLock()
    /// The handlers of running assertions, indexed by identifier − 1 (identifiers are handed out in
    /// order); `nil` once ended or expired.
    private var handlers: [Handler?] = []
    private var running = 0

    /// A backend with no assertions.
    public init() {}

    /// Grants the assertion and keeps its handler.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        lock.lock()
        defer { lock.unlock() }
        handlers.append(Handler(run: expirationHandler ?? {}))
        running += 1
        return BackgroundTaskIdentifier(rawValue: handlers.count)
    }

    /// Forgets the assertion's handler; ending an unknown or ended identifier does nothing.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        lock.lock()
        let handler = take(identifier.rawValue - 1)
        lock.unlock()
        _ = handler  // released outside the lock
    }

    /// No limit.
    public var backgroundTimeRemaining: TimeInterval? { nil }

    /// How many assertions are still running.
    public var runningCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// Calls, in begin order, the handler of every assertion still running when its turn comes.
    @MainActor
    public func expireAll() {
        lock.lock()
        let count = handlers.count
        lock.unlock()
        for index in 0..<count {
            lock.lock()
            let handler = take(index)
            lock.unlock()
            handler?.run()
        }
    }

    /// Under the lock: removes and returns the handler at `index`, if still running.
    private func take(_ index: Int) -> Handler? {
        guard handlers.indices.contains(index), let handler = handlers[index] else { return nil }
        handlers[index] = nil
        running -= 1
        return handler
    }
}
