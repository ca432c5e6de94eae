/// Runs `operation` with `backend` as the default backend of every face begun anywhere in the process (any thread,
/// queue or task, `Task.detached` included) until it returns: how tests reach code that begins tasks on its own queue.
///
/// Only one can be in force at a time: a second call meanwhile (a parallel test) throws ``ProcessWideBackendConflict``
/// naming where the first was installed, without running `operation`; put such tests in one `.serialized` suite. A
/// task-local ``withBackgroundTaskBackend(_:operation:)`` still wins in its scope, as does a backend passed to a face.
/// ```swift
/// let simulator = BackgroundTaskSimulator()
/// try withProcessWideBackgroundTaskBackend(simulator) {
///     cache.scheduleCleanup()  // begins a SafeBackgroundTask on the cache's queue
/// }
/// ```
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - fileID: Where it is installed, for the conflict message; leave the default.
///   - line: Where it is installed; leave the default.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
/// - Throws: ``ProcessWideBackendConflict`` when another process-wide backend is in force; what `operation` throws.
public func withProcessWideBackgroundTaskBackend<Result>(
    _ backend: any BackgroundTaskBackend,
    fileID: String = #fileID,
    line: Int = #line,
    operation: () throws -> Result
) throws -> Result {
    try OverrideScopes.shared.installProcessWide(backend, fileID: fileID, line: line)
    defer { OverrideScopes.shared.uninstallProcessWide() }
    return try operation()
}

/// The `async` form of ``withProcessWideBackgroundTaskBackend(_:fileID:line:operation:)``.
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - fileID: Where it is installed, for the conflict message; leave the default.
///   - line: Where it is installed; leave the default.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
/// - Throws: ``ProcessWideBackendConflict`` when another process-wide backend is in force; what `operation` throws.
public func withProcessWideBackgroundTaskBackend<Result>(
    _ backend: any BackgroundTaskBackend,
    fileID: String = #fileID,
    line: Int = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async throws -> Result {
    try OverrideScopes.shared.installProcessWide(backend, fileID: fileID, line: line)
    defer { OverrideScopes.shared.uninstallProcessWide() }
    return try await operation()
}

/// Another process-wide default backend was in force: two tests that each install one ran at the same time.
public struct ProcessWideBackendConflict: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the backend in force was installed.
    public var installedAt: BackgroundTaskCallSite
    /// Where the second one was attempted.
    public var attemptedAt: BackgroundTaskCallSite

    /// Creates the error.
    public init(installedAt: BackgroundTaskCallSite, attemptedAt: BackgroundTaskCallSite) {
        self.installedAt = installedAt
        self.attemptedAt = attemptedAt
    }

    /// What happened and what to do.
    public var description: String {
        "A process-wide background-task backend installed at \(installedAt.fileID):\(installedAt.line) is still "
            + "in force; \(attemptedAt.fileID):\(attemptedAt.line) cannot install another. Tests that use "
            + "withProcessWideBackgroundTaskBackend must not run in parallel: put them in one .serialized suite."
    }
}
