import BackgroundTaskKit
import Foundation

// App code as a newcomer writes it in an Xcode 26 app target: every type here is implicitly
// `@MainActor` (default isolation), and nothing is annotated for the package's sake.

/// An image cache that cleans up on its own queue: a begin off the main thread.
final class ImageCache {
    private let queue = DispatchQueue(label: "image-cache")
    private(set) var cleanedUp = false

    nonisolated func scheduleCleanup(backend: (any BackgroundTaskBackend)? = nil, done: @escaping @Sendable () -> Void)
    {
        queue.async {
            let task = SafeBackgroundTask.begin("Image cache cleanup", backend: backend)
            // … delete expired files …
            task.end()
            done()
        }
    }
}

/// An upload queue over a manager, with the async, cancelling form.
final class UploadQueue {
    let manager: BackgroundTaskManager
    private(set) var uploaded: [String] = []

    init(backend: (any BackgroundTaskBackend)? = nil) {
        manager = BackgroundTaskManager(backend: backend, configuration: Self.configuration)
    }

    /// Over a manager made elsewhere (one with diagnostics, say).
    init(manager: BackgroundTaskManager) {
        self.manager = manager
    }

    static let configuration = BackgroundTaskManager.Configuration(maximumOutstandingTasks: 10, minimumTimeRemaining: 5)

    func upload(_ name: String, taking duration: @escaping () async throws -> Void) async throws {
        try await manager.withTask("Upload \(name)") {
            try await duration()
            uploaded.append(name)  // main-actor state, used without `await`
        }
    }

    /// The callback style: a task kept until the completion handler runs.
    func upload(_ name: String, completion: @escaping () -> Void) throws -> SafeBackgroundTask {
        let task = try manager.beginTask("Upload \(name)") { completion() }
        return task
    }
}

/// A document save in one scope.
final class Document {
    private(set) var saved = false

    func save(backend: (any BackgroundTaskBackend)? = nil) {
        let task = ScopedBackgroundTask("Save document", backend: backend)
        saved = true
        task.end()
    }

    /// A save that stops between pages when time runs out.
    func compact(pages: Int, backend: (any BackgroundTaskBackend)? = nil, page: (Int) -> Void) {
        withBackgroundTask("Compact", backend: backend) { task in
            for number in 0..<pages where !task.isExpired { page(number) }
        }
    }
}

/// An async refresh in the caller's (main-actor) isolation.
final class FeedModel {
    private(set) var items: [String] = []

    func refresh(backend: (any BackgroundTaskBackend)? = nil, fetch: () async throws -> [String]) async throws {
        items = try await withBackgroundTask("Refresh feed", backend: backend) { try await fetch() }
    }
}

/// A raw call site migrated: once `beginBackgroundTask` … `endBackgroundTask` on a property.
final class LegacyExporter {
    private var task: SafeBackgroundTask?

    func start(backend: (any BackgroundTaskBackend)? = nil) {
        task = SafeBackgroundTask.begin("Export", backend: backend) { [weak self] in self?.cancel() }
    }

    func finish() {
        task?.end()
        task = nil
    }

    func cancel() {}
}

/// A custom backend: `nonisolated`, as any type that must be usable from every thread is in a
/// target with default MainActor isolation (the recipe in Documentation/Adopting.md).
nonisolated struct LoggingBackend: BackgroundTaskBackend {
    let wrapped: any BackgroundTaskBackend
    let label: String

    func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        wrapped.beginBackgroundTask(named: name.map { "\(label): \($0)" }, expirationHandler: expirationHandler)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        wrapped.endBackgroundTask(identifier)
    }

    var backgroundTimeRemaining: TimeInterval? { wrapped.backgroundTimeRemaining }
}
