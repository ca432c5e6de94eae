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

/// Where the safety net reports the leaks it catches, so that they reach your logs on a device.
///
/// By default each leak is one line on standard error (Xcode's console). A manager's observers also get its leaks
/// (`BackgroundTaskEvent.Kind.endedBySafetyNet`, in `BackgroundTaskDiagnostics`), as does a `DiagnosingBackend`'s;
/// simulator tasks are not reported here: the simulator records them and `expectNoLeaks()` fails naming the line,
/// keeping test output quiet. Set ``handler`` early, say at launch, to send leaks to your logging or crash reporting:
/// ```swift
/// BackgroundTaskLeakReporting.handler = { leak in
///     logger.error("\(leak.description, privacy: .public)")
/// }
/// ```
public enum BackgroundTaskLeakReporting {
    /// In a struct: a closure kept bare as a lock's state gains two thunks per read until reports overflow the stack.
    private struct Stored {
        var handler: @Sendable (BackgroundTaskLeak) -> Void
    }

    private static let storage = Locked(Stored(handler: writeToStandardError))

    /// Called for each leak on the releasing thread, never under a package lock; by default
    /// ``writeToStandardError(_:)``. Reading or setting it costs the same at any leak count.
    public static var handler: @Sendable (BackgroundTaskLeak) -> Void {
        get { storage.withLock { $0.handler } }
        set { storage.withLock { $0.handler = newValue } }
    }

    /// The default handler: one line, `BackgroundTaskKit: …`, on standard error.
    public static func writeToStandardError(_ leak: BackgroundTaskLeak) {
        FileHandle.standardError.write(Data("BackgroundTaskKit: \(leak)\n".utf8))
    }

    static func report(_ leak: BackgroundTaskLeak) {
        handler(leak)
    }
}
