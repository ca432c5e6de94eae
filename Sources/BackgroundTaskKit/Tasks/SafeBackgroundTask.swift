import Foundation

/// A background task that cannot leak: the drop-in replacement for a raw `beginBackgroundTask` call.
///
/// The identifier is kept where the expiration handler can always reach it. When time runs out, your cleanup runs on
/// the main actor, then the task ends itself inside the system's handler.
/// ```swift
/// let task = SafeBackgroundTask.begin("Upload photos") {
///     uploader.cancel()  // time is up: stop; the task ends itself after this returns
/// }
/// uploader.upload { _ in task.end() }
/// ```
/// > Important: Keep the task until the work is done: if its last reference goes away while it runs, `deinit` ends the
/// > assertion (the last safety net) and reports a leak with the call site that began it (``BackgroundTaskLeakReporting``:
/// > its manager's `leakHandler`, its module's handler, or by default standard error). Capture the
/// > task's owner weakly in `onExpiration`: the task keeps its cleanup until it ends, so a strong capture keeps the
/// > owner (and task) alive until expiry, and the safety net never runs. If the system calls the expiration handler off
/// > the main thread while the main thread is busy, the cleanup is sent to the main actor and waited for at most one
/// > second; then the assertion is ended anyway, and the cleanup runs when the main thread gets to it.
public final class SafeBackgroundTask: Sendable {
    let record: TaskRecord

    init(record: TaskRecord) {
        self.record = record
    }

    /// Begins a background task. It never fails: if the system refuses, ``state`` is
    /// ``BackgroundTaskState/notGranted(_:)``, the work runs without extra time, and ``end()`` does nothing.
    ///
    /// A refusal comes when the app is in the background with no time left to lend (after the expiration handlers
    /// were called): then the app can be suspended at any moment and no handler will come. Work that must not be
    /// suspended halfway (a write that takes a database or file lock, `0xdead10cc` if the app is suspended holding it)
    /// should check first:
    /// ```swift
    /// let task = SafeBackgroundTask.begin("Save drafts")
    /// guard task.state == .running else {
    ///     scheduleSaveForNextLaunch()  // refused: do not take the lock now
    ///     return
    /// }
    /// ```
    /// - Parameters:
    ///   - name: Shown in the system's console warnings; empty means none; over 256 characters is cut.
    ///   - backend: By default the ``withBackgroundTaskBackend(_:operation:)`` override, or the platform default
    ///     (`UIApplication` on iOS; pass `.expiringActivity` in app extensions).
    ///   - onExpiration: Called on the main actor when time runs out, before the task ends itself. Stop the work
    ///     quickly here; do not end the task (it is ended for you) or start new work.
    ///   - holdsAssertionOnlyInBackground: Hold the system assertion only while the app is in the background, as a
    ///     manager can (``BackgroundTaskManager/Configuration/holdsAssertionOnlyInBackground``). Off by default.
    ///   - fileID: Where the task is begun, for diagnostics; leave the default.
    ///   - line: Where the task is begun, for diagnostics; leave the default.
    ///   - function: Where the task is begun, for diagnostics; leave the default.
    /// - Returns: The running task.
    public static func begin(
        _ name: String?,
        backend: (any BackgroundTaskBackend)? = nil,
        onExpiration: (@MainActor @Sendable () -> Void)? = nil,
        holdsAssertionOnlyInBackground: Bool = false,
        fileID: String = #fileID,
        line: Int = #line,
        function: String = #function
    ) -> SafeBackgroundTask {
        let record = TaskEngine.beginStandalone(
            name, backend: backend, fileID: fileID, line: line, function: function, cleanup: onExpiration,
            onlyInBackground: holdsAssertionOnlyInBackground)
        return SafeBackgroundTask(record: record)
    }

    /// Ends the task. Idempotent and callable from any thread or actor; after expiry it does nothing.
    public func end() {
        record.engine.end(record)
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

    deinit {
        let engine = record.engine
        // The usual case, a task already ended: one short lock trip, not the whole end.
        guard engine.isRunning(record), engine.end(record, bySafetyNet: true) else { return }
        // The simulator (a backend on a virtual clock) records the leak for the test's checks.
        guard !engine.clock(for: record).isVirtual else { return }
        BackgroundTaskLeakReporting.report(
            BackgroundTaskLeak(name: record.name, callSite: record.callSite, age: engine.age(of: record)),
            ownerHandler: engine.leakHandler)
    }
}
