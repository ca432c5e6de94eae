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
    private let lock = NSLock()
    private var nextIdentifier = 1
    private var handlers: [Int: @MainActor @Sendable () -> Void] = [:]

    /// Creates a backend with no assertions.
    public init() {}

    /// Grants the assertion and keeps its handler until it ends or expires.
    ///
    /// - Parameters:
    ///   - name: Ignored.
    ///   - expirationHandler: Called by ``expireAll()``.
    /// - Returns: A fresh identifier; never `nil`.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        lock.lock()
        defer { lock.unlock() }
        let identifier = nextIdentifier
        nextIdentifier += 1
        handlers[identifier] = expirationHandler ?? {}
        return BackgroundTaskIdentifier(rawValue: identifier)
    }

    /// Ends the assertion: its handler will not be called.
    ///
    /// - Parameter identifier: An identifier this backend granted; others are ignored.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        lock.lock()
        let handler = handlers.removeValue(forKey: identifier.rawValue)
        lock.unlock()
        _ = handler  // released outside the lock
    }

    /// Always `nil`: time only runs out when ``expireAll()`` says so.
    public var backgroundTimeRemaining: TimeInterval? { nil }

    /// The assertions still running.
    public var runningCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return handlers.count
    }

    /// Expires every running assertion: calls their handlers in begin order, never under the lock.
    @MainActor
    public func expireAll() {
        lock.lock()
        let identifiers = handlers.keys.sorted()
        lock.unlock()
        for identifier in identifiers {
            lock.lock()
            let handler = handlers.removeValue(forKey: identifier)
            lock.unlock()
            handler?()
        }
    }
}
