/// The life-cycle state of the app a ``BackgroundTaskSimulator`` models.
public enum SimulatedAppState: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Visible to the user; background time does not run.
    case foreground
    /// Running in the background: background time runs while an assertion is held.
    case background
    /// Not running: the app held no assertion in the background, or its handlers ended them all.
    case suspended
    /// Killed by the system; see ``BackgroundTaskSimulator/termination``.
    case terminated

    /// The state's name.
    public var description: String { rawValue }
}
