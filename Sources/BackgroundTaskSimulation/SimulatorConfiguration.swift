import Foundation

/// The iOS policy numbers a ``BackgroundTaskSimulator`` applies.
///
/// The defaults are those of current iOS (see `Documentation/Simulator.md`). Change them to model an
/// older system (180 s of background time before iOS 13) or to make a test shorter.
///
/// ```swift
/// var configuration = SimulatorConfiguration()
/// configuration.backgroundTimeBudget = 180  // iOS 7 to 12
/// let simulator = BackgroundTaskSimulator(configuration: configuration)
/// ```
public struct SimulatorConfiguration: Sendable, Equatable {
    /// Background time granted each time the app enters the background, in seconds. It runs only
    /// while the app is in the background and holds at least one assertion. Default 30.
    public var backgroundTimeBudget: TimeInterval = 30

    /// Total time all expiration handlers of one expiry may take before the watchdog terminates
    /// the app, in seconds. Also the time a task whose handler ran outside an expiry has to end.
    /// Default 5.
    public var handlerTimeBudget: TimeInterval = 5

    /// The most assertions that may be outstanding at once; one more terminates the app with
    /// `0xbada5e47`. Default 1000.
    public var assertionLimit: Int = 1000

    /// Age after which iOS prints its "was created over 30 seconds ago" warning. Default 30.
    public var longRunningTaskWarningAge: TimeInterval = 30

    /// With ``SimulatorFault/noHandlerWhenLittleTimeLeft``: a task begun in the background with less
    /// time than this remaining gets no expiration handler. Default 5.
    public var minimumTimeForExpirationHandler: TimeInterval = 5

    /// The state the simulated app starts in. Default ``SimulatedAppState/foreground``.
    public var initialState: SimulatedAppState = .foreground

    /// Creates the iOS defaults.
    public init() {}
}
