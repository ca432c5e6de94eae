/// One way of holding a background task: a face of BackgroundTaskKit, or a peer it is measured against.
///
/// The raw values are the names the command line and the benchmark names use (`FaceCost safe 1000`).
public enum Face: String, CaseIterable, Sendable {
    /// Peer: `beginBackgroundTask(named:expirationHandler:)` and `endBackgroundTask(_:)` on the backend,
    /// nothing else. The floor.
    case raw
    /// Peer: ``HandWrittenTask``, the minimal correct wrapper one would write by hand.
    case handWritten = "hand-written"
    /// `SafeBackgroundTask.begin(_:backend:)`, then `end()`.
    case safe
    /// `ScopedBackgroundTask(_:backend:)`, then `end()`.
    case scoped
    /// The synchronous `withBackgroundTask(_:backend:_:)`.
    case withSync = "with"
    /// The `async` `withBackgroundTask(_:backend:_:)`.
    case withAsync = "with-async"
    /// Peer: ``HandWrittenAsyncTask``, the hand-written form of the `async` `withBackgroundTask`.
    case handWrittenAsync = "hand-written-async"
    /// `BackgroundTaskManager.beginTask(_:)` with the default configuration (coalescing), then `end()`.
    case manager
    /// `BackgroundTaskManager.beginTask(_:)` with `coalescesAssertions = false`, then `end()`.
    case managerSeparate = "manager-separate"

    /// Whether a pair must be run from an `async` context.
    public var isAsync: Bool { self == .withAsync || self == .handWrittenAsync }

    /// Whether this is one of the library's faces rather than a peer.
    public var isFace: Bool { self != .raw && self != .handWritten && self != .handWrittenAsync }
}
