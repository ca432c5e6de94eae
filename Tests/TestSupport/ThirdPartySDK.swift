import BackgroundTaskKitTesting
import Foundation

/// "Third-party" code that calls the application's raw methods directly, as SDKs call
/// `UIApplication.shared`: the tracer's subjects. Each function is its own symbol (never inlined), so
/// the tests can check that the tracer names the function that made the call. Public: an optimized
/// build exports only public symbols, and `dladdr` sees only exported ones.
public enum LeakySDK {
    /// Begins a named task whose handler forgets to end it: the assertion the system kills the app for.
    @inline(never)
    public static func flushQueue(on application: SimulatedApplication) -> SimulatedApplication.TaskIdentifier {
        // A stand-in for an SDK's raw calls, the tracer's subject. bgtask:ignore BT001 BT003
        application.beginBackgroundTask(withName: "LeakySDK.flush") {
            // Cancels its upload, but never ends the task.
        }
    }

    /// The classic capture bug: the handler ends the identifier it captured before the begin returned
    /// (`.invalid`), so the real one stays held.
    @inline(never)
    public static func uploadWithStaleCapture(on application: SimulatedApplication)
        -> SimulatedApplication.TaskIdentifier
    {
        let captured = SimulatedApplication.TaskIdentifier.invalid
        // A stand-in for an SDK's raw calls, the tracer's subject. bgtask:ignore BT001 BT002
        return application.beginBackgroundTask { application.endBackgroundTask(captured) }
    }

    /// Begins a task with no handler at all.
    @inline(never)
    public static func beginWithoutHandler(on application: SimulatedApplication) -> SimulatedApplication.TaskIdentifier
    {
        // A stand-in for an SDK's raw calls, the tracer's subject. bgtask:ignore BT001 BT002 BT003
        application.beginBackgroundTask(withName: nil, expirationHandler: nil)
    }
}

/// "Third-party" code that does it right: ends its task in the handler.
public enum CarefulSDK {
    /// Begins a task whose handler ends it, through an identifier stored where the handler reads it.
    @inline(never)
    public static func save(on application: SimulatedApplication) {
        let identifier = Locked(SimulatedApplication.TaskIdentifier.invalid)
        // A stand-in for an SDK's raw calls, the tracer's subject. bgtask:ignore BT001 BT005
        let begun = application.beginBackgroundTask(withName: "CarefulSDK.save") {
            application.endBackgroundTask(identifier.withLock { $0 })
        }
        identifier.withLock { $0 = begun }
    }
}
