/// Identifies one background-task assertion granted by a ``BackgroundTaskBackend``.
///
/// Every backend hands out this one type, so code written against the seam compiles everywhere, Linux included. A
/// backend converts its platform identifier to and from the raw value (`UIBackgroundTaskIdentifier` one to one). An
/// identifier means something only to the backend that returned it. "Not granted" is not an identifier:
/// ``BackgroundTaskBackend/beginBackgroundTask(named:expirationHandler:)`` returns `nil`.
public struct BackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The backend's raw identifier.
    public var rawValue: Int

    /// Wraps a backend's raw identifier.
    /// - Parameter rawValue: The raw value the backend assigned.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The identifier as iOS prints it in its console messages, for example `3 (0x3)`.
    public var description: String {
        "\(rawValue) (0x\(String(rawValue, radix: 16)))"
    }
}
