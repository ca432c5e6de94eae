/// Runs `body` inside a background task that ends when `body` returns or throws.
/// ```swift
/// let count = try withBackgroundTask("Save drafts") {
///     try store.saveDrafts()
/// }
/// ```
/// If the system refuses the assertion, `body` runs anyway; when the work must not start without it, use
/// ``BackgroundTaskManager/beginTask(_:onExpiration:fileID:line:function:)``, which throws.
/// > Important: On expiry `onExpiration` runs on the main actor and the assertion is ended inside the system's handler,
/// > while `body` may still be running; make `body` stop when `onExpiration` says so.
///
/// - Parameters:
///   - name: A name for the task, shown in the system's console warnings.
///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default.
///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background, as a
///     manager can (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``). Off by default.
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
    holdsAssertionOnlyInBackground: Bool = false,
    fileID: String = #fileID,
    line: Int = #line,
    function: String = #function,
    _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    let record = TaskEngine.beginStandalone(
        name, backend: backend, fileID: fileID, line: line, function: function, cleanup: onExpiration,
        onlyInBackground: holdsAssertionOnlyInBackground)
    defer { record.engine.end(record) }
    return try body()
}

/// Runs `body` inside a background task that ends when `body` returns or throws, passing `body` the task so that it can
/// learn that time ran out (``SafeBackgroundTask/isExpired``) and stop.
/// ```swift
/// try withBackgroundTask("Compact database") { task in
///     for page in pages {
///         guard !task.isExpired else { break }  // time ran out: stop between pages
///         try database.compact(page)
///     }
/// }
/// ```
/// The task ends when `body` returns; ending it earlier from inside `body` is harmless.
/// - Parameters:
///   - name: A name for the task, shown in the system's console warnings.
///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default.
///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background, as a
///     manager can (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``). Off by default.
///   - fileID: Where the task is begun, for diagnostics; leave the default.
///   - line: Where the task is begun, for diagnostics; leave the default.
///   - function: Where the task is begun, for diagnostics; leave the default.
///   - body: The work, given the running task.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withBackgroundTask<Result, Failure: Error>(
    _ name: String?,
    backend: (any BackgroundTaskBackend)? = nil,
    onExpiration: (@MainActor @Sendable () -> Void)? = nil,
    holdsAssertionOnlyInBackground: Bool = false,
    fileID: String = #fileID,
    line: Int = #line,
    function: String = #function,
    body: (SafeBackgroundTask) throws(Failure) -> Result
) throws(Failure) -> Result {
    let task = SafeBackgroundTask.begin(
        name, backend: backend, onExpiration: onExpiration,
        holdsAssertionOnlyInBackground: holdsAssertionOnlyInBackground,
        fileID: fileID, line: line, function: function)
    defer { task.end() }
    return try body(task)
}

/// Runs `body` in a background task that ends when `body` returns or throws, cancelling `body` if time runs out first.
///
/// It runs in the caller's isolation, so a `@MainActor` caller can use its non-`Sendable` state:
/// ```swift
/// @MainActor func refresh() async throws {
///     let items = try await withBackgroundTask("Refresh feed") {
///         try await api.fetchFeed()  // cancelled if background time runs out
///     }
///     self.items = items
/// }
/// ```
/// If the system refuses the assertion, `body` runs anyway, without extra background time; refused in the background
/// (no time left to lend, after the expiration handlers were called: the app may be suspended at any moment and no
/// handler will come), `body` starts cancelled, so that work which must not be suspended halfway (a write holding a
/// database lock) can decline to start: check `Task.isCancelled`, or let `try Task.checkCancellation()` throw.
/// `body` runs in a child task (in the caller's isolation, with its priority and task-local values), so an expiry
/// cancels `body` only: the calling task goes on uncancelled, as do the next batch of a long-lived loop or the rest of
/// a SwiftUI `.task {}`; a cancellation of the caller is passed on to `body`. The assertion is begun before the call
/// first suspends, so the app is covered while `body` waits for a busy caller's actor; an expiry in that wait makes
/// `body` start cancelled. Telling an expiry from a cancellation: after an expiry `body` typically throws
/// `CancellationError` while the caller's `Task.isCancelled` stays `false` (`true` if the caller was cancelled); only
/// an expiry calls `onExpiration`.
/// ```swift
/// do {
///     try await withBackgroundTask("Sync") { try await sync.run() }
/// } catch is CancellationError where !Task.isCancelled {
///     scheduleSyncLater()  // background time ran out; this task goes on
/// }
/// ```
/// > Important: On expiry `body` is cancelled, `onExpiration` runs on the main actor, and the assertion is ended inside
/// > the system's handler after `body` returned or `windDownLimit` passed, whichever comes first: cooperative
/// > cancellation is what makes `body` stop. A file or database lock still held when the app is suspended gets it
/// > killed (`0xdead10cc`), so let `body` release its locks as it unwinds.
///
/// - Parameters:
///   - name: A name for the task, shown in the system's console warnings.
///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default.
///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background, as a
///     manager can (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``). Off by default.
///   - fileID: Where the task is begun, for diagnostics; leave the default.
///   - line: Where the task is begun, for diagnostics; leave the default.
///   - function: Where the task is begun, for diagnostics; leave the default.
///   - windDownLimit: On expiry, how long the end waits at most for the cancelled `body` to return, in seconds:
///     default 0.5 (Apple asks handlers to return in "less than a second or so"); `0`, negative or NaN: no wait; at
///     most 2, which all waits of one expiry share. A handler on the main thread cannot wait for a `@MainActor` body.
///   - isolation: The caller's isolation, inherited by `body`.
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws (a `CancellationError`, typically, after expiry).
@inlinable
public func withBackgroundTask<Result, Failure: Error>(
    _ name: String?,
    backend: (any BackgroundTaskBackend)? = nil,
    onExpiration: (@MainActor @Sendable () -> Void)? = nil,
    holdsAssertionOnlyInBackground: Bool = false,
    windDownLimit: Double = 0.5,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID,
    line: Int = #line,
    function: String = #function,
    _ body: () async throws(Failure) -> Result
) async throws(Failure) -> Result {
    let record = AsyncBody.begin(
        name, backend: backend, cleanup: onExpiration, onlyInBackground: holdsAssertionOnlyInBackground,
        windDownLimit: windDownLimit, fileID: fileID, line: line, function: function)
    return try await AsyncBody.run(record, isolation: isolation, body)
}
