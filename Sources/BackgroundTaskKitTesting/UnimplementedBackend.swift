import BackgroundTaskKit
import Foundation
import Testing

/// A backend that fails the current test whenever it is touched.
///
/// Pass it where a code path must never begin, end or ask about a background task, to prove that
/// it does not. Each touch records a Swift Testing issue at the place the backend was created, and
/// the backend then behaves as a refusing system: begin returns `nil`, no time remains.
///
/// ```swift
/// @Test func cachedReadsNeedNoBackgroundTime() {
///     let cache = ImageCache(backend: UnimplementedBackend())
///     _ = cache.image(for: url)  // fails the test if it begins a task
/// }
/// ```
public struct UnimplementedBackend: BackgroundTaskBackend {
    /// A description of each touch, in order, for tests that want to inspect them.
    public var touches: [String] { recorded.value }

    private let recorded = Locked<[String]>([])
    private let sourceLocation: SourceLocation

    /// Creates a backend that records an issue at the caller's location when touched.
    ///
    /// - Parameter sourceLocation: Where the issues point; defaults to the line creating it.
    public init(sourceLocation: SourceLocation = #_sourceLocation) {
        self.sourceLocation = sourceLocation
    }

    /// Records an issue and refuses.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        touch("beginBackgroundTask(named: \(name.map { "\"\($0)\"" } ?? "nil"))")
        return nil
    }

    /// Records an issue.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        touch("endBackgroundTask(\(identifier))")
    }

    /// Records an issue and answers 0.
    public var backgroundTimeRemaining: TimeInterval? {
        touch("backgroundTimeRemaining")
        return 0
    }

    private func touch(_ call: String) {
        recorded.withLock { $0.append(call) }
        TestKitIssueRecording.record("UnimplementedBackend.\(call) was called", sourceLocation: sourceLocation)
    }
}
