import BackgroundTaskKit
import BackgroundTaskTracing
import Foundation

/// An application object shaped like `UIApplication`, whose assertions are the simulator's: the
/// stand-in on which a `BackgroundTaskTracer` is tested and demonstrated without
/// UIKit.
///
/// Its three background-task methods have UIKit's declarations. "Third-party" code calls them as it
/// would call `UIApplication.shared`; this package's `ApplicationBackend` can wrap it too. Once
/// ``installTracer(_:)`` has run, every call goes through the tracer's interception seam, exactly as
/// the exchanged methods of `UIApplication` do after `BackgroundTaskTracer.install()`, including
/// UIKit's shape of `beginBackgroundTask(expirationHandler:)`, which reaches the same implementation
/// as the named begin.
///
/// ```swift
/// let simulator = BackgroundTaskSimulator()
/// let application = SimulatedApplication(simulator: simulator)
/// let tracer = BackgroundTaskTracer(configuration: .init(rescuesHeldAssertions: true), clockOf: simulator)
/// application.installTracer(tracer)
/// ```
public final class SimulatedApplication: ApplicationBackgroundTasking, TracedApplication, Sendable {
    /// The application's identifier type, shaped like `UIBackgroundTaskIdentifier`; raw values are the
    /// simulator's.
    public struct TaskIdentifier: BackgroundTaskIdentifierMirror {
        /// The raw identifier.
        public var rawValue: Int

        /// Wraps a raw identifier.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Not granted: raw value 0, as in UIKit.
        public static let invalid = TaskIdentifier(rawValue: 0)
    }

    /// The simulator whose assertions this application raises.
    public let simulator: BackgroundTaskSimulator
    private let installedTracer = Locked<BackgroundTaskTracer?>(nil)

    /// Creates an application over a simulator.
    public init(simulator: BackgroundTaskSimulator) {
        self.simulator = simulator
    }

    /// Sends every later call of the three methods through `tracer`, as
    /// `BackgroundTaskTracer.install()` does on `UIApplication`.
    public func installTracer(_ tracer: BackgroundTaskTracer) {
        installedTracer.withLock { $0 = tracer }
    }

    /// The tracer installed, if any.
    public var tracer: BackgroundTaskTracer? { installedTracer.withLock { $0 } }

    // MARK: - UIApplication's declarations

    /// The simulator's background time left; `Double.greatestFiniteMagnitude` in the foreground.
    public var backgroundTimeRemaining: TimeInterval {
        simulator.backgroundTimeRemaining ?? .greatestFiniteMagnitude
    }

    /// Raises a simulated assertion, through the tracer when one is installed.
    @inline(never)
    public func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> TaskIdentifier {
        guard let tracer else { return originalBegin(named: taskName, expirationHandler: handler) }
        let callStack = TracedCallStack.capture(frames: tracer.configuration.backtraceDepth)
        let identifier = tracer.interceptBegin(
            on: self, named: taskName, expirationHandler: handler, callStack: callStack
        ) { name, handler in
            originalBegin(named: name, expirationHandler: handler)
        }
        return withExtendedLifetime(callStack) { identifier }
    }

    /// Raises an unnamed simulated assertion, through the tracer when one is installed. Like UIKit's,
    /// its implementation reaches the named begin (which is intercepted too): the tracer counts the
    /// call once.
    @inline(never)
    public func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil)
        -> TaskIdentifier
    {
        guard let tracer else { return originalBegin(named: nil, expirationHandler: handler) }
        let callStack = TracedCallStack.capture(frames: tracer.configuration.backtraceDepth)
        let identifier = tracer.interceptBegin(
            on: self, named: nil, expirationHandler: handler, callStack: callStack
        ) { _, handler in
            // The caller's handler, passed on to the named begin as UIKit does. bgtask:ignore BT002
            beginBackgroundTask(withName: nil, expirationHandler: handler)
        }
        return withExtendedLifetime(callStack) { identifier }
    }

    /// Ends a simulated assertion, through the tracer when one is installed.
    @inline(never)
    public func endBackgroundTask(_ identifier: TaskIdentifier) {
        guard let tracer else { return originalEnd(identifier) }
        tracer.interceptEnd(on: self, identifier) { identifier in originalEnd(identifier) }
    }

    /// Ends a simulated assertion without the tracer: what the tracer's rescue calls.
    public func endBackgroundTaskBypassingTracer(_ identifier: TaskIdentifier) {
        originalEnd(identifier)
    }

    // MARK: - The original implementations

    private func originalBegin(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> TaskIdentifier {
        guard let identifier = simulator.beginBackgroundTask(named: name, expirationHandler: expirationHandler) else {
            return .invalid
        }
        return TaskIdentifier(rawValue: identifier.rawValue)
    }

    /// Like UIKit, passes every identifier to the system, `.invalid` included (the simulator logs
    /// "Can't end BackgroundTask" for one it does not hold).
    private func originalEnd(_ identifier: TaskIdentifier) {
        simulator.endBackgroundTask(BackgroundTaskIdentifier(rawValue: identifier.rawValue))
    }
}
