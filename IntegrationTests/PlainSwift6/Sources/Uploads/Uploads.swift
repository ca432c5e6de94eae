import BackgroundTaskKit
import Dispatch
import Foundation

// `onExpiration` is a `@MainActor @Sendable` closure: it runs on the main actor, possibly while other threads run.
// What it captures must therefore be safe to use from there. The three usual owners, as they compile in plain Swift 6:

/// A transport that is safe to call from any thread (its own lock).
public final class Transport: Sendable {
    private let cancelled = NSLock()
    nonisolated(unsafe) private var ids: Set<Int> = []  // guarded by `cancelled`

    /// Creates a transport.
    public init() {}

    /// Cancels upload `id`.
    public func cancel(_ id: Int) { cancelled.withLock { _ = ids.insert(id) } }

    /// Whether upload `id` was cancelled.
    public func isCancelled(_ id: Int) -> Bool { cancelled.withLock { ids.contains(id) } }
}

/// 1. A class that does its work on its own serial queue, and is not `Sendable`. `[weak self] in
///    self?.transport.cancel(id)` does not compile ("sending 'self' risks causing data races"): capture what the
///    cleanup needs, when that is `Sendable` (here the transport), instead of `self`.
public final class QueueUploader {
    private let queue = DispatchQueue(label: "uploads")
    private let transport: Transport
    private var task: SafeBackgroundTask?

    /// Creates an uploader over `transport`.
    public init(transport: Transport) { self.transport = transport }

    /// Starts upload `id` under a background task.
    public func start(_ id: Int, backend: (any BackgroundTaskBackend)? = nil) {
        let transport = transport  // Sendable: the cleanup may use it from the main actor
        task = SafeBackgroundTask.begin("Upload \(id)", backend: backend) { transport.cancel(id) }
        queue.async {}  // … the upload itself, on the uploader's queue …
    }

    /// The upload finished: ends its task.
    public func finish() {
        task?.end()
        task = nil
    }
}

/// 2. An actor: actors are `Sendable`, so the cleanup may keep a weak reference and hop to it.
public actor ActorUploader {
    private let transport: Transport
    private var task: SafeBackgroundTask?
    /// Whether an expiry stopped the upload.
    public private(set) var stopped = false

    /// Creates an uploader over `transport`.
    public init(transport: Transport) { self.transport = transport }

    /// Starts upload `id` under a background task.
    public func start(_ id: Int, backend: (any BackgroundTaskBackend)? = nil) {
        task = SafeBackgroundTask.begin("Upload \(id)", backend: backend) { [weak self] in
            Task { await self?.stop(id) }
        }
    }

    /// Time ran out: cancels upload `id` and ends its task.
    public func stop(_ id: Int) {
        stopped = true
        transport.cancel(id)
        task?.end()
        task = nil
    }
}

/// 3. A main-actor class: the cleanup runs on the main actor too, so `[weak self] in self?.…` is the natural form.
@MainActor
public final class MainActorUploader {
    private let transport: Transport
    private var task: SafeBackgroundTask?
    /// Whether an expiry stopped the upload.
    public private(set) var stopped = false

    /// Creates an uploader over `transport`.
    public init(transport: Transport) { self.transport = transport }

    /// Starts upload `id` under a background task.
    public func start(_ id: Int, backend: (any BackgroundTaskBackend)? = nil) {
        task = SafeBackgroundTask.begin("Upload \(id)", backend: backend) { [weak self] in self?.stop(id) }
    }

    /// Time ran out: cancels upload `id` and ends its task.
    public func stop(_ id: Int) {
        stopped = true
        transport.cancel(id)
        task?.end()
        task = nil
    }
}
