import BackgroundTaskKit
import Foundation

/// A `UIApplication`-shaped object whose begin hands out the next identifier and whose end does
/// nothing: `ApplicationBackend`'s own work (the path every iOS app takes) with no system behind it.
public final class CountingApplication: ApplicationBackgroundTasking, @unchecked Sendable {  // `next` under `lock`
    /// Shaped like `UIBackgroundTaskIdentifier`.
    public struct TaskIdentifier: BackgroundTaskIdentifierMirror {
        /// The number.
        public var rawValue: Int
        /// An identifier with this number.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// No task: 0, as UIKit's.
        public static let invalid = TaskIdentifier(rawValue: 0)
    }

    private let lock = NSLock()
    private var next = 1

    /// An application with no tasks.
    public init() {}

    /// In the foreground: `DBL_MAX`, as UIKit says.
    public var backgroundTimeRemaining: TimeInterval { .greatestFiniteMagnitude }

    /// The next identifier; the handler is dropped (this application never expires).
    public func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)?
    ) -> TaskIdentifier {
        lock.lock()
        defer { lock.unlock() }
        next += 1
        return TaskIdentifier(rawValue: next - 1)
    }

    /// Does nothing.
    public func endBackgroundTask(_ identifier: TaskIdentifier) {}
}

/// A `ProcessInfo`-shaped activity manager (macOS) whose tokens are fresh objects, ended by dropping
/// them.
public final class CountingActivityManager: ProcessActivityManaging, Sendable {
    /// Stands in for `ProcessInfo.ActivityOptions`.
    public struct ActivityOptions: OptionSet, Sendable {
        /// The bits.
        public let rawValue: UInt64
        /// Options with these bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }
    }

    /// A manager with no activities.
    public init() {}

    /// A new token.
    public func beginActivity(options: ActivityOptions, reason: String) -> any NSObjectProtocol {
        NSObject()
    }

    /// Does nothing: the token is released by its owner.
    public func endActivity(_ activity: any NSObjectProtocol) {}
}
