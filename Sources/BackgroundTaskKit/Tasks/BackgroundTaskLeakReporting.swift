import Foundation

/// A running task released, then ended by the safety net: a caught leak (the app would have been killed at expiry).
public struct BackgroundTaskLeak: Equatable, Sendable, CustomStringConvertible {
    /// The task's name.
    public var name: String?
    /// Where the task was begun: the code that lost it.
    public var callSite: BackgroundTaskCallSite
    /// How long the task had run when it was released, in seconds.
    public var age: TimeInterval

    /// Creates a leak record.
    public init(name: String?, callSite: BackgroundTaskCallSite, age: TimeInterval) {
        self.name = name
        self.callSite = callSite
        self.age = age
    }

    /// One sentence naming the task, the line and what to do.
    public var description: String {
        "SafeBackgroundTask \(name.map { "\"\($0)\"" } ?? "(unnamed)") begun at \(callSite) was released while "
            + "still running, after \(formatSeconds(age)) s; the safety net ended it. Call end() when the work is done."
    }
}

extension BackgroundTaskLeak {
    /// The module whose code began the task: the first part of its call site's `#fileID` (`MySDK/Uploader.swift`:
    /// `MySDK`); the whole file ID when it names no module. For a task begun from Objective-C
    /// (`BTKBackgroundTask` with `__FILE__`), the folder that holds the file.
    public var module: String {
        String(callSite.fileID.prefix { $0 != "/" })
    }
}

/// Where the safety net reports the leaks it catches, so that they reach your logs on a device.
///
/// Each leak goes to the first of these that is set, so that an SDK keeps its leak reports to itself and leaves the
/// host app's alone:
/// 1. the `leakHandler` of the ``BackgroundTaskManager`` that owns the task;
/// 2. the handler set for the module whose code began the task (``setHandler(forModule:_:)``);
/// 3. the process-wide ``handler``, by default one line on standard error (Xcode's console).
///
/// A manager's observers also get its leaks (`BackgroundTaskEvent.Kind.endedBySafetyNet`, in
/// `BackgroundTaskDiagnostics`), as does a `DiagnosingBackend`'s; simulator tasks are not reported here: the simulator
/// records them and `expectNoLeaks()` fails naming the line, keeping test output quiet.
///
/// An app sets ``handler`` early, say at launch, to send leaks to its logging or crash reporting:
/// ```swift
/// BackgroundTaskLeakReporting.handler = { leak in
///     logger.error("\(leak.description, privacy: .public)")
/// }
/// ```
/// An SDK never sets ``handler`` (it belongs to the host app); it gives its manager a `leakHandler`, or sets a handler
/// for its own module:
/// ```swift
/// BackgroundTaskLeakReporting.setHandler(forModule: "MySDK") { leak in
///     MySDKLog.error("\(leak)")
/// }
/// ```
public enum BackgroundTaskLeakReporting {
    /// In a struct: a closure kept bare as a lock's state gains two thunks per read until reports overflow the stack.
    private struct Stored {
        var handler: @Sendable (BackgroundTaskLeak) -> Void
        var moduleHandlers: [String: @Sendable (BackgroundTaskLeak) -> Void] = [:]
    }

    private static let storage = Locked(Stored(handler: writeToStandardError))

    /// The process-wide handler, for the leaks no manager's `leakHandler` or module handler takes: the host app's.
    /// Called for each leak on the releasing thread, never under a package lock; by default
    /// ``writeToStandardError(_:)``. Reading or setting it costs the same at any leak count.
    public static var handler: @Sendable (BackgroundTaskLeak) -> Void {
        get { storage.withLock { $0.handler } }
        set { storage.withLock { $0.handler = newValue } }
    }

    /// Sends the leaks of tasks begun in `module`'s code to `handler` instead of the process-wide ``handler``
    /// (a manager's own `leakHandler` still comes first). For an SDK, whose leaks are its own business.
    ///
    /// - Parameters:
    ///   - module: The module name as `#fileID` writes it (`"MySDK"` for `MySDK/Uploader.swift`), compared with
    ///     each leak's ``BackgroundTaskLeak/module``.
    ///   - handler: Called for each such leak on the releasing thread, never under a package lock; `nil` removes the
    ///     module's handler, so its leaks go to the process-wide one again.
    public static func setHandler(
        forModule module: String, _ handler: (@Sendable (BackgroundTaskLeak) -> Void)?
    ) {
        storage.withLock { $0.moduleHandlers[module] = handler }
    }

    /// The handler set for `module` with ``setHandler(forModule:_:)``, if any.
    public static func handler(forModule module: String) -> (@Sendable (BackgroundTaskLeak) -> Void)? {
        storage.withLock { $0.moduleHandlers[module] }
    }

    /// The default handler: one line, `BackgroundTaskKit: …`, on standard error.
    public static func writeToStandardError(_ leak: BackgroundTaskLeak) {
        FileHandle.standardError.write(Data("BackgroundTaskKit: \(leak)\n".utf8))
    }

    /// Reports `leak` to its owner's handler, its module's, or the process-wide one, outside the lock.
    static func report(_ leak: BackgroundTaskLeak, ownerHandler: (@Sendable (BackgroundTaskLeak) -> Void)?) {
        if let ownerHandler { return ownerHandler(leak) }
        let handler = storage.withLock { $0.moduleHandlers[leak.module] ?? $0.handler }
        handler(leak)
    }
}
