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
    /// The handlers of assertions begun since ``base``, indexed by identifier − 1 − `base` (identifiers
    /// are handed out in order); `nil` once ended or expired.
    private var handlers: [Handler?] = []
    /// Identifiers handed out before `handlers` was last emptied: it is emptied when a begin finds no
    /// assertion running (outside an expiry), so that a long run keeps nothing per assertion.
    private var base = 0
    private var running = 0
    private var expiring = false

    /// A backend with no assertions.
    public init() {}

    /// Grants the assertion and keeps its handler.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        lock.lock()
        defer { lock.unlock() }
        if running == 0, !expiring {
            base += handlers.count
            handlers.removeAll(keepingCapacity: true)
        }
        handlers.append(Handler(run: expirationHandler ?? {}))
        running += 1
        return BackgroundTaskIdentifier(rawValue: base + handlers.count)
    }

    /// Forgets the assertion's handler; ending an unknown or ended identifier does nothing.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        lock.lock()
        let handler = take(identifier.rawValue - 1 - base)
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
        expiring = true
        lock.unlock()
        for index in 0..<count {
            lock.lock()
            let handler = take(index)
            lock.unlock()
            handler?.run()
        }
        lock.lock()
        expiring = false
        lock.unlock()
    }

    /// Under the lock: removes and returns the handler at `index`, if still running.
    private func take(_ index: Int) -> Handler? {
        guard handlers.indices.contains(index), let handler = handlers[index] else { return nil }
        handlers[index] = nil
        running -= 1
        return handler
    }
}
