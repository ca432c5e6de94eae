import Foundation

/// A task released while still running, which the package's safety net ended: a leak the package
/// caught (without the safety net, the app would have been killed when its time ran out).
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
/// By default each leak is written as one line to standard error (seen in Xcode's console). Set
/// ``handler`` early, for example at launch, to send leaks to your logging or crash reporting:
///
/// ```swift
/// BackgroundTaskLeakReporting.handler = { leak in
///     logger.error("\(leak.description, privacy: .public)")
/// }
/// ```
///
/// A manager's observers also get each of its leaks (``BackgroundTaskEvent/Kind/endedBySafetyNet``),
/// and so do a ``DiagnosingBackend``'s. Tasks on the simulator are not reported here: the simulator
/// records them, and `expectNoLeaks()` fails naming the line, so test output stays quiet.
public enum BackgroundTaskLeakReporting {
    /// The handler, in a struct: a closure kept directly as a lock's state would be wrapped in two
    /// more thunks at every read, until a report overflowed the stack (see `LockedState`).
    private struct Stored {
        var handler: @Sendable (BackgroundTaskLeak) -> Void
    }

    private static let storage = Locked(Stored(handler: writeToStandardError))

    /// Called for each leak, on the thread that released the task (never under a lock of the
    /// package's). The default, ``writeToStandardError(_:)``, writes one line to standard error.
    ///
    /// Reading and setting it costs the same every time, however many leaks were reported.
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
