extension BackgroundTaskManager {
    /// Runs `body` inside a task of this manager, and cancels `body` if time runs out first: the
    /// `async` form of ``beginTask(_:onExpiration:fileID:line:function:)`` (no cleanup to hand over
    /// before the work's `Task` exists).
    ///
    /// The task is begun before `body` starts, so a refusal (the cap, too little time left, the system)
    /// is thrown at once and `body` does not run. `body` then runs in a child task, in the caller's
    /// isolation with its priority and task-local values; an expiry cancels `body` only, never the
    /// calling task, and a cancellation of the caller is passed on to `body`. The task ends when `body`
    /// returns or throws.
    ///
    /// ```swift
    /// let uploads = BackgroundTaskManager()
    ///
    /// func upload(_ video: Video) async throws {
    ///     try await uploads.withTask("Upload video") {
    ///         try await uploader.send(video)  // cancelled if background time runs out
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name for the task, shown in the system's console warnings.
    ///   - onExpiration: Called on the main actor when time runs out, after `body` was cancelled.
    ///   - isolation: The caller's isolation, inherited by `body`.
    ///   - fileID: Where the task is begun, for diagnostics; leave the default.
    ///   - line: Where the task is begun, for diagnostics; leave the default.
    ///   - function: Where the task is begun, for diagnostics; leave the default.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: ``BackgroundTaskError`` when the task is refused (and `body` did not run); otherwise
    ///   what `body` throws (a `CancellationError`, typically, after expiry).
    public func withTask<Result>(
        _ name: String?,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let cancellation = BodyCancellation()
        let task = try beginTask(
            name,
            onExpiration: {
                cancellation.expire()
                onExpiration?()
            },
            fileID: fileID,
            line: line,
            function: function
        )
        defer { task.end() }
        let outcome = await withoutActuallyEscaping(body) { body in
            let slot = BodyOutcome<Result, any Error>()
            // The body is only called on the caller's isolation, by the child task, which this call awaits.
            let work = UncheckedSendableBox(body)
            // Not captured as `isolated`: a task closure that captures the isolated parameter is not run
            // on that actor. The child hops there by calling a function isolated to it.
            let caller: (any Actor)? = isolation
            let child = Task { await runManagedBody(on: caller, work, into: slot) }
            cancellation.attach(child)
            await withTaskCancellationHandler {
                await child.value
            } onCancel: {
                child.cancel()
            }
            return slot.take()
        }
        return try outcome.get()
    }
}

/// In the body's child task, on the caller's isolation: runs the body.
private func runManagedBody<Result>(
    on caller: isolated (any Actor)?,
    _ work: UncheckedSendableBox<() async throws -> Result>,
    into slot: BodyOutcome<Result, any Error>
) async {
    do {
        slot.store(.success(try await work.value()))
    } catch {
        slot.store(.failure(error))
    }
}

/// Cancels a body's child task on expiry, whether the expiry comes before or after the task exists.
final class BodyCancellation: Sendable {
    private let state = Locked<(task: Task<Void, Never>?, expired: Bool)>((nil, false))

    /// The body's task exists; cancelled at once if the expiry came first.
    func attach(_ task: Task<Void, Never>) {
        let expired = state.withLock { state in
            state.task = task
            return state.expired
        }
        if expired { task.cancel() }
    }

    /// Time ran out: cancels the body's task (now, or when it is attached).
    func expire() {
        let task = state.withLock { state in
            state.expired = true
            return state.task
        }
        task?.cancel()
    }
}
