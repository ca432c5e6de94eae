/// How an `async` face runs its body: in a child task on the caller's isolation, for a task begun before the caller
/// first suspended; an expiry cancels the child alone (as it starts, if it came first). The generic part is inlined
/// (unspecialized, metadata look-ups cost a fifth of a call); three non-generic entry points reach the engine.
@usableFromInline
package enum AsyncBody {
    /// Begins a standalone task whose body an expiry will cancel.
    @usableFromInline
    package static func begin(
        _ name: String?,
        backend: (any BackgroundTaskBackend)?,
        cleanup: (@MainActor @Sendable () -> Void)?,
        onlyInBackground: Bool,
        windDownLimit: Double,
        fileID: String,
        line: Int,
        function: String
    ) -> AnyObject {
        TaskEngine.beginStandalone(
            name, backend: backend, fileID: fileID, line: line, function: function, cleanup: cleanup,
            onlyInBackground: onlyInBackground, body: BodyTask(windDownLimit: windDownLimit))
    }

    /// Begins a task of `manager` whose body an expiry will cancel; throws the manager's refusal.
    @usableFromInline
    package static func begin(
        _ name: String?,
        in manager: BackgroundTaskManager,
        cleanup: (@MainActor @Sendable () -> Void)?,
        windDownLimit: Double,
        fileID: String,
        line: Int,
        function: String
    ) throws(BackgroundTaskError) -> AnyObject {
        let callSite = BackgroundTaskCallSite(fileID: fileID, line: line, function: function)
        let (record, refusal) = manager.engine.begin(
            name: name, callSite: callSite, cleanup: cleanup, backend: manager.backend,
            body: BodyTask(windDownLimit: windDownLimit))
        if let refusal { throw refusal }
        return record
    }

    /// In the body's task, as it starts: from now on an expiry cancels it.
    @usableFromInline
    package static func attach(_ record: AnyObject, to task: UnsafeCurrentTask?) {
        // Always a `TaskRecord` (`begin` made it); `as!` from `AnyObject` cost 200 instructions a call (callgrind).
        let record = unsafeDowncast(record, to: TaskRecord.self)
        record.engine.attachBody(of: record, to: task)
    }

    /// In the body's task, as it finishes: ends the task (waiting for a cancel in progress first).
    @usableFromInline
    package static func finish(_ record: AnyObject) {
        let record = unsafeDowncast(record, to: TaskRecord.self)
        record.engine.end(record, detachingBody: true)
    }

    /// Runs `body` in a child task for `record` (from a `begin`).
    @inlinable
    package static func run<Result, Failure: Error>(
        _ record: AnyObject,
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let outcome = await withoutActuallyEscaping(body) { body in
            // Only the child task this call awaits calls the body, on the caller's isolation. Wrapped in a non-throwing
            // closure: a typed-throws function type as a generic argument needs iOS 18 / macOS 15 run-time support.
            let work = HandedOver<() async -> Swift.Result<Result, Failure>> {
                do throws(Failure) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
            // The child hops to the caller's isolation by calling a function isolated to it (a task closure that
            // captures the isolated parameter compiles, but is not run on that actor).
            let caller: (any Actor)? = isolation
            let task = HandedOver(record)
            // A structured child (`async let`): allocated with this task's allocator and cancelled with this task,
            // while an expiry cancels it alone. Its outcome comes back boxed once the child finished: never shared.
            async let child = runInChild(on: caller, work, record: task)
            return await child.value
        }
        return try outcome.get()
    }

    /// In the body's child task, on the caller's isolation: lets an expiry cancel it, runs the body, ends the task.
    @inlinable
    package static func runInChild<Result, Failure: Error>(
        on caller: isolated (any Actor)?,
        _ work: HandedOver<() async -> Swift.Result<Result, Failure>>,
        record: HandedOver<AnyObject>
    ) async -> HandedOver<Swift.Result<Result, Failure>> {
        withUnsafeCurrentTask { task in attach(record.value, to: task) }
        defer { finish(record.value) }
        return HandedOver(await work.value())
    }
}
