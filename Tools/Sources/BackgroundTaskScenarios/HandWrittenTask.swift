import BackgroundTaskKit

/// The correct way to hold one assertion with raw calls, as Apple's engineers advise: one object per
/// assertion, the identifier kept where its own handler can always reach it, ended exactly once.
///
/// The `correct` variants use it; it is scenario code, not part of the library.
@MainActor
final class HandWrittenTask {
    private let backend: RawBackend
    private var identifier: BackgroundTaskIdentifier?
    private var expired = false
    private var ended = false

    /// Begins the assertion; on expiry runs `cleanup`, then ends it. The call site is the caller's.
    init(
        _ name: String,
        backend: RawBackend,
        cleanup: @escaping @MainActor @Sendable () -> Void = {},
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function
    ) {
        self.backend = backend
        identifier = backend.beginBackgroundTask(named: name, fileID: fileID, line: line, function: function) {
            [self] in
            expired = true
            cleanup()
            end()
        }
        // The handler may already have run, before the identifier was known.
        if expired { end() }
    }

    /// Whether the expiration handler has run.
    var didExpire: Bool { expired }

    /// Ends the assertion; later calls do nothing.
    func end() {
        guard !ended, let identifier else { return }
        ended = true
        backend.endBackgroundTask(identifier)
    }
}

/// A place for an identifier that a handler reads when it runs, not when it is created.
@MainActor
final class IdentifierBox {
    var value: BackgroundTaskIdentifier?
}
