/// Runs `body` inside a background task that ends when `body` returns or throws.
///
/// ```swift
/// let count = try withBackgroundTask("Save drafts") {
///     try store.saveDrafts()
/// }
/// ```
///
/// If the system refuses the assertion, `body` runs anyway: background time is a bonus, not a
/// precondition. When the work must not start without it, use ``BackgroundTaskManager/beginTask(_:onExpiration:fileID:line:function:)``,
/// which throws.
///
/// > Important: On expiry `onExpiration` runs on the main actor and the assertion is ended inside the
/// > system's handler, while `body` may still be running; make `body` stop when `onExpiration` says so.
///
/// - Parameters:
///   - name: A name for the task, shown in the system's console warnings.
///   - backend: The backend; by default the ``withBackgroundTaskBackend(_:operation:)`` override or
///     the platform default.
///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
///   - fileID: Where the task is begun, for diagnostics; leave the default.
///   - line: Where the task is begun, for diagnostics; leave the default.
///   - function: Where the task is begun, for diagnostics; leave the default.
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withBackgroundTask<Result, Failure: Error>(
    _ name: String?,
    backend: (any BackgroundTaskBackend)? = nil,
    onExpiration: (@MainActor @Sendable () -> Void)? = nil,
    fileID: String = #fileID,
    line: Int = #line,
    function: String = #function,
    _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    let record = TaskEngine.beginStandalone(
        name,
        backend: backend,
        fileID: fileID,
        line: line,
        function: function,
        cleanup: onExpiration
    )
    defer { record.engine.end(record) }
    return try body()
}

/// Runs `body` inside a background task that ends when `body` returns or throws, and cancels the
/// calling task if time runs out first.
///
/// It runs in the caller's isolation, so a `@MainActor` caller can use its non-`Sendable` state:
///
/// ```swift
/// @MainActor func refresh() async throws {
///     let items = try await withBackgroundTask("Refresh feed") {
///         try await api.fetchFeed()  // cancelled if background time runs out
///     }
///     self.items = items
/// }
/// ```
///
/// If the system refuses the assertion, `body` runs anyway, without extra background time.
///
/// > Important: On expiry the calling task is cancelled, `onExpiration` runs on the main actor, and
/// > the assertion is ended inside the system's handler without waiting for `body`: cooperative
/// > cancellation is what makes `body` stop. The cancellation is the calling task's, so it lasts
/// > after this function returns: code after it sees `Task.isCancelled`.
///
/// - Parameters:
///   - name: A name for the task, shown in the system's console warnings.
///   - backend: The backend; by default the ``withBackgroundTaskBackend(_:operation:)`` override or
///     the platform default.
///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
///   - fileID: Where the task is begun, for diagnostics; leave the default.
///   - line: Where the task is begun, for diagnostics; leave the default.
///   - function: Where the task is begun, for diagnostics; leave the default.
///   - isolation: The caller's isolation, inherited by `body`.
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws (a `CancellationError`, typically, after expiry).
public func withBackgroundTask<Result, Failure: Error>(
    _ name: String?,
    backend: (any BackgroundTaskBackend)? = nil,
    onExpiration: (@MainActor @Sendable () -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID,
    line: Int = #line,
    function: String = #function,
    _ body: () async throws(Failure) -> Result
) async throws(Failure) -> Result {
    let record = withUnsafeCurrentTask { task in
        TaskEngine.beginStandalone(
            name,
            backend: backend,
            fileID: fileID,
            line: line,
            function: function,
            cleanup: onExpiration,
            cancelling: task
        )
    }
    defer { record.engine.end(record, detachingBody: true) }
    return try await body()
}
