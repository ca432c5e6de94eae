import Foundation

/// A background task owned by one scope: it begins in `init` and ends when ``end()`` consumes it or it goes out of
/// scope. It is `~Copyable`: exactly one owner, and it cannot be ended twice.
/// ```swift
/// func saveLibrary() throws {
///     let task = ScopedBackgroundTask("Save library") { database.cancelSave() }
///     try database.save()  // a throw, or any early exit, ends the task too
///     task.end()
/// }
/// ```
/// > Warning: Keep it in a named `let` and end it by name. `_ = ScopedBackgroundTask(…)` (the fix-it Swift offers for a
/// > `let` that is never used) ends the task at once, before the work. `bgtask audit` reports such lines (BT009).
///
/// > Important: On expiry the cleanup runs on the main actor and the assertion is ended inside the system's handler,
/// > even though the scope has not finished; ``state`` then reads ``BackgroundTaskState/expired``.
public struct ScopedBackgroundTask: ~Copyable, Sendable {
    let record: TaskRecord

    /// Begins a background task for the current scope.
    /// - Parameters:
    ///   - name: A name for the task, shown in the system's console warnings.
    ///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default.
    ///   - onExpiration: Called on the main actor when time runs out, before the task ends itself.
    ///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background, as a
    ///     manager can (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``). Off by default.
    ///   - fileID: Where the task is begun, for diagnostics; leave the default.
    ///   - line: Where the task is begun, for diagnostics; leave the default.
    ///   - function: Where the task is begun, for diagnostics; leave the default.
    public init(
        _ name: String?,
        backend: (any BackgroundTaskBackend)? = nil,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        holdsAssertionOnlyInBackground: Bool = false,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function
    ) {
        record = TaskEngine.beginStandalone(
            name, backend: backend, fileID: fileID, line: line, function: function, cleanup: onExpiration,
            onlyInBackground: holdsAssertionOnlyInBackground)
    }

    /// Running, ended, expired or not granted.
    public var state: BackgroundTaskState {
        record.engine.status(of: record)
    }

    /// The task's name, as given (cut to 256 characters); `nil` when it has none.
    public var name: String? { record.name }
    /// Where the task was begun.
    public var callSite: BackgroundTaskCallSite { record.callSite }
    /// Seconds since the task began on its backend's clock (the simulator's virtual time in tests), even after it ends.
    public var age: TimeInterval { record.engine.age(of: record) }
    /// Whether time ran out before the task was ended: its cleanup has run (or is running) and its work should stop.
    public var isExpired: Bool { state == .expired }
    /// The background time left, per the task's backend (``BackgroundTaskBackend/backgroundTimeRemaining``).
    public var backgroundTimeRemaining: TimeInterval? { record.backend.backgroundTimeRemaining }

    /// Ends the task now, consuming it.
    public consuming func end() {
        record.engine.end(record)
    }

    deinit {
        let engine = record.engine
        // The usual case, `end()` already called: one short lock trip, not the whole end.
        if engine.isRunning(record) { engine.end(record) }
    }
}
