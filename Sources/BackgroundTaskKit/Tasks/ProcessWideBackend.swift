/// Runs `operation` with `backend` as the default backend of every face begun anywhere in the
/// process, on every thread, queue and task (`Task.detached` included), until it returns: the way a
/// test reaches code that begins its tasks on its own `DispatchQueue`.
///
/// Only one process-wide backend can be in force at a time. A second call while one is (another test
/// running in parallel) throws ``ProcessWideBackendConflict`` naming where the first was installed,
/// and does not run `operation`: put the tests that use it in one `.serialized` suite. A task-local
/// ``withBackgroundTaskBackend(_:operation:)`` still wins inside its scope, and a backend passed to a
/// face always wins.
///
/// ```swift
/// @Suite(.serialized) @MainActor struct CacheTests {
///     @Test func cleanupOnTheCacheQueueEndsItsTask() async throws {
///         let simulator = BackgroundTaskSimulator()
///         try withProcessWideBackgroundTaskBackend(simulator) {
///             cache.scheduleCleanup()  // begins a SafeBackgroundTask on the cache's queue
///         }
///         _ = try await simulator.waitForBegins(1)
///         // …
///     }
/// }
/// ```
///
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - fileID: Where it is installed, for the conflict message; leave the default.
///   - line: Where it is installed; leave the default.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
/// - Throws: ``ProcessWideBackendConflict`` when another process-wide backend is in force; what
///   `operation` throws.
public func withProcessWideBackgroundTaskBackend<Result>(
    _ backend: any BackgroundTaskBackend,
    fileID: String = #fileID,
    line: Int = #line,
    operation: () throws -> Result
) throws -> Result {
    let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: "withProcessWideBackgroundTaskBackend")
    if let installed = OverrideScopes.shared.installProcessWide(backend, at: callSite) {
        throw ProcessWideBackendConflict(installedAt: installed, attemptedAt: callSite)
    }
    defer { OverrideScopes.shared.uninstallProcessWide() }
    return try operation()
}

/// The `async` form of ``withProcessWideBackgroundTaskBackend(_:fileID:line:operation:)``.
///
/// - Parameters:
///   - backend: The backend faces use when they are not given one.
///   - fileID: Where it is installed, for the conflict message; leave the default.
///   - line: Where it is installed; leave the default.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
/// - Throws: ``ProcessWideBackendConflict`` when another process-wide backend is in force; what
///   `operation` throws.
public func withProcessWideBackgroundTaskBackend<Result>(
    _ backend: any BackgroundTaskBackend,
    fileID: String = #fileID,
    line: Int = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async throws -> Result {
    let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: "withProcessWideBackgroundTaskBackend")
    if let installed = OverrideScopes.shared.installProcessWide(backend, at: callSite) {
        throw ProcessWideBackendConflict(installedAt: installed, attemptedAt: callSite)
    }
    defer { OverrideScopes.shared.uninstallProcessWide() }
    return try await operation()
}

/// Another process-wide default backend was in force: two tests that each install one ran at the
/// same time.
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
