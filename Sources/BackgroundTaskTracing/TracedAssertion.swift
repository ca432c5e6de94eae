import BackgroundTaskKit
import Foundation

/// A raw assertion a ``BackgroundTaskTracer`` saw begin and not end yet, with everything it knows
/// about it.
public struct TracedAssertion: Codable, Equatable, Sendable {
    /// Where its expiration handler stands.
    public enum HandlerState: String, Codable, Sendable {
        /// Begun without a handler.
        case none
        /// The handler has not been called.
        case waiting
        /// The system called the handler and it has not returned yet.
        case running
        /// The handler returned, and the assertion is still held: the system terminates an app in
        /// this state.
        case returned
    }

    /// The tracer's number for it: the `BackgroundTaskEvent/TaskID/number` of its events.
    public var taskNumber: UInt64
    /// The system's identifier (`UIBackgroundTaskIdentifier.rawValue`).
    public var identifier: Int
    /// Its name, if it has one.
    public var name: String?
    /// Who began it: the calling image and symbol.
    public var caller: BackgroundTaskCallSite
    /// Whether it was begun on the main thread.
    public var beganOnMainThread: Bool
    /// The thread that began it, as `pthread_self()`'s value.
    public var thread: UInt
    /// Seconds since it was begun.
    public var age: TimeInterval
    /// Where its expiration handler stands.
    public var handlerState: HandlerState
    /// The caller's frames, innermost first, as `Image: symbol` (empty unless the tracer keeps
    /// backtraces: ``BackgroundTaskTracer/Configuration/backtraceDepth``).
    public var backtrace: [String]

    /// Creates a record.
    public init(
        taskNumber: UInt64, identifier: Int, name: String?, caller: BackgroundTaskCallSite,
        beganOnMainThread: Bool, thread: UInt, age: TimeInterval, handlerState: HandlerState,
        backtrace: [String] = []
    ) {
        self.taskNumber = taskNumber
        self.identifier = identifier
        self.name = name
        self.caller = caller
        self.beganOnMainThread = beganOnMainThread
        self.thread = thread
        self.age = age
        self.handlerState = handlerState
        self.backtrace = backtrace
    }
}
