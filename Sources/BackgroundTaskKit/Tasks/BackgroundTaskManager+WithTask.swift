extension BackgroundTaskManager {
    /// Runs `body` in a task of this manager, cancelling `body` if time runs out first: the `async` form of
    /// ``beginTask(_:onExpiration:fileID:line:function:)`` (no cleanup to hand over before the work's `Task` exists).
    ///
    /// Begun before `body` starts: a refusal (cap, too little time, the system) is thrown at once and `body` never
    /// runs. `body` runs in a child task with the caller's isolation, priority and task-local values; an expiry cancels
    /// only `body`, the caller's cancellation is passed on, and the task ends when `body` returns or throws.
    /// ```swift
    /// try await uploads.withTask("Upload video") {
    ///     try await uploader.send(video)  // cancelled if background time runs out
    /// }
    /// ```
    /// - Parameters:
    ///   - name: A name for the task, shown in the system's console warnings.
    ///   - onExpiration: Called on the main actor when time runs out, after `body` was cancelled.
    ///   - windDownLimit: On expiry, how long the end waits at most for the cancelled `body` to return, in seconds, as
    ///     for the `async` `withBackgroundTask` (default 0.5; `0`: no wait).
    ///   - isolation: The caller's isolation, inherited by `body`.
    ///   - fileID: Where the task is begun, for diagnostics; leave the default.
    ///   - line: Where the task is begun, for diagnostics; leave the default.
    ///   - function: Where the task is begun, for diagnostics; leave the default.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: ``BackgroundTaskError`` when the task is refused (and `body` did not run); otherwise what `body`
    ///   throws (a `CancellationError`, typically, after expiry).
    @inlinable
    public func withTask<Result>(
        _ name: String?,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        windDownLimit: Double = 0.5,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let record = try AsyncBody.begin(
            name, in: self, cleanup: onExpiration, windDownLimit: windDownLimit, fileID: fileID, line: line,
            function: function)
        return try await AsyncBody.run(record, isolation: isolation, body)
    }
}
