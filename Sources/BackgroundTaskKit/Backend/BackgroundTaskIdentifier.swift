/// Identifies one background-task assertion granted by a ``BackgroundTaskBackend``.
///
/// Every backend hands out values of this one type, so code written against the seam compiles on
/// every platform, including Linux. A backend converts its platform identifier to and from the raw
/// value; `UIBackgroundTaskIdentifier` converts one to one.
///
/// An identifier is only meaningful to the backend that returned it. "Not granted" is not an
/// identifier: ``BackgroundTaskBackend/beginBackgroundTask(named:expirationHandler:)`` returns `nil`.
public struct BackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The backend's raw identifier.
    public var rawValue: Int

    /// Wraps a backend's raw identifier.
    ///
    /// - Parameter rawValue: The raw value the backend assigned.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The identifier as iOS prints it in its console messages, for example `3 (0x3)`.
    public var description: String {
        "\(rawValue) (0x\(String(rawValue, radix: 16)))"
    }
}
