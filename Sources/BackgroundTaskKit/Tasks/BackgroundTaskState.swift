/// Where a background task begun through this package stands.
public enum BackgroundTaskState: Equatable, Sendable {
    /// The assertion is held (or, for an instant, being begun).
    case running
    /// Ended by its owner (or by the deinit safety net, or `endAll()`).
    case ended
    /// The system's time ran out: the expiration cleanup ran and the assertion was ended.
    case expired
    /// It never ran; the error says why. There is nothing to end.
    case notGranted(BackgroundTaskError)
}
