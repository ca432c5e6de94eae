import Foundation

/// A backend for platforms that never suspend the process: it grants every assertion and never expires one.
///
/// The default on Linux and other non-Apple platforms: background-task code runs unchanged on servers and in tools.
public struct UnlimitedBackend: BackgroundTaskBackend {
    private let nextIdentifier = Locked(1)

    /// Creates a backend whose identifiers count up from 1.
    public init() {}

    /// Grants the assertion and drops the handler, which this backend never calls.
    /// - Parameters:
    ///   - name: Ignored.
    ///   - expirationHandler: Ignored: time never runs out.
    /// - Returns: A fresh identifier; never `nil`.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        nextIdentifier.withLock { next in
            defer { next &+= 1 }
            return BackgroundTaskIdentifier(rawValue: next)
        }
    }

    /// Does nothing: there is no system assertion to release.
    /// - Parameter identifier: Ignored.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {}
    /// Always `nil`: time is unlimited.
    public var backgroundTimeRemaining: TimeInterval? { nil }
}
