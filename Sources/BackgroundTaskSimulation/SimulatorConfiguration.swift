import Foundation

/// The iOS policy numbers a ``BackgroundTaskSimulator`` applies.
///
/// The defaults are those of current iOS (iOS 13.4 and later; sources in `Documentation/Simulator.md`).
/// Presets model older systems, where much shipped code comes from: ``iOS6``, ``iOS7Through12``,
/// ``iOS13Through13Point3``. Change single values to model something else or to make a test shorter.
///
/// ```swift
/// let simulator = BackgroundTaskSimulator(configuration: .iOS7Through12)  // 180 s, no 30-s warning
///
/// var configuration = SimulatorConfiguration()
/// configuration.expirationLead = 0          // handlers exactly when the budget is gone
/// configuration.debuggerAttached = true     // what a developer sees at the desk
/// ```
///
/// Values out of range have a documented meaning, never a trap: NaN counts as 0, negative values as 0,
/// `.infinity` as "never" where the value is a time after which something happens.
public struct SimulatorConfiguration: Sendable, Equatable {
    /// Background time granted each time the app enters the background, in seconds. It runs only
    /// while the app is in the background and holds at least one assertion. Default 30 (iOS 13 and
    /// later); 180 from iOS 7 to 12; 600 before iOS 7.
    public var backgroundTimeBudget: TimeInterval = 30

    /// How long before the background time runs out the system calls the expiration handlers, in
    /// seconds. Default 4: device logs show the handlers called 26 s after a task begun on entering
    /// the background (WordPress-iOS PR #21254, `elapsed = 26`), and Apple's documentation says
    /// "shortly before the app's remaining background time reaches 0".
    ///
    /// During the lead the app keeps running: `backgroundTimeRemaining` counts the lead down, an
    /// assertion ended by then is not held, and the watchdog terminates the app when the budget is
    /// gone if one still is. `0` calls the handlers when the budget is gone and terminates the app
    /// right after them if an assertion is still held: the simulator's behaviour before this setting
    /// existed. A lead longer than the budget calls the handlers as soon as time starts to run.
    public var expirationLead: TimeInterval = 4

    /// Total time all expiration handlers of one expiry may take before the watchdog terminates
    /// the app, in seconds. Also the time a task whose handler ran outside an expiry has to end.
    /// Default 5.
    public var handlerTimeBudget: TimeInterval = 5

    /// The most assertions that may be outstanding at once; one more terminates the app with
    /// `0xbada5e47`. Default 1000.
    public var assertionLimit: Int = 1000

    /// The most `performExpiringActivity` activities that may run at once; one more is called with
    /// `expired == true` straight away, as when the system cannot take an assertion. Default 64, as
    /// measured by Wire (wireapp/wire-ios PR #4880).
    public var expiringActivityLimit: Int = 64

    /// Age after which iOS prints its "was created over 30 seconds ago" warning. Default 30 (the
    /// warning is new in iOS 13.4); `.infinity`: never (older systems).
    public var longRunningTaskWarningAge: TimeInterval = 30

    /// With ``SimulatorFault/noHandlerWhenLittleTimeLeft``: a task begun in the background with less
    /// time than this remaining gets no expiration handler. Default 5.
    public var minimumTimeForExpirationHandler: TimeInterval = 5

    /// The state the simulated app starts in. Default ``SimulatedAppState/foreground``.
    public var initialState: SimulatedAppState = .foreground

    /// The app runs under Xcode's debugger: the watchdog never terminates it (each termination it
    /// would have made is logged as ``SimulatorEvent/terminationPreventedByDebugger(_:)`` instead) and
    /// it is never suspended, while the expiration handlers are still called and iOS's console
    /// warnings still print. Default `false`, a device in a user's hands. What a developer saw at the
    /// desk ("the warning, but no crash") is reproduced with `true`; what users get, with `false`.
    public var debuggerAttached = false

    /// The Info.plist's `BGTaskSchedulerPermittedIdentifiers` of the simulated app (entries ending in `.*` admit every
    /// identifier with that prefix); `nil`, the default: every identifier is permitted.
    public var permittedTaskIdentifiers: [String]?
    /// The Info.plist's `UIBackgroundModes` of the simulated app (`fetch` for refresh tasks, `processing` for
    /// processing tasks); `nil`, the default: every mode is there.
    public var backgroundModes: [String]?
    /// How long the system lets a launched refresh task (`BGAppRefreshTask`) run before it expires it, in seconds.
    /// Default 30 (Apple: refresh tasks are short; the same 30 s as the background budget).
    public var appRefreshTaskTime: TimeInterval = 30
    /// How long the system lets a launched processing task (`BGProcessingTask`) run before it expires it, in seconds.
    /// Default 300: Apple says "minutes" and gives no figure; a modelling choice, shorten it in tests.
    public var processingTaskTime: TimeInterval = 300
    /// The most pending refresh requests (Apple's documentation of `submit`: 1).
    public var maximumPendingAppRefreshRequests = 1
    /// The most pending processing requests (Apple's documentation of `submit`: 10).
    public var maximumPendingProcessingRequests = 10
    /// Whether the simulated device gives continued-processing jobs the GPU in the background
    /// (`BGTaskScheduler.supportedResources` contains `.gpu`). Default `false`.
    public var supportsBackgroundGPU = false
    /// How many continued-processing jobs run at once; one more is queued (`.queue`) or refused (`.fail`). Default 1:
    /// Apple gives no figure; a modelling choice.
    public var maximumRunningContinuedProcessingTasks = 1
    /// How long a continued-processing job may go without reporting progress before the system expires it as
    /// stalled, in seconds. Default 60: Apple says only that stalled tasks "may be forcibly expired"; a modelling
    /// choice.
    public var continuedProcessingStallTime: TimeInterval = 60

    /// Creates the iOS defaults (iOS 13.4 and later).
    public init() {}

    /// A configuration with the values given and the iOS defaults for the rest.
    ///
    /// ```swift
    /// let simulator = BackgroundTaskSimulator(configuration: .init(backgroundTimeBudget: 10, debuggerAttached: true))
    /// ```
    ///
    /// - Parameters:
    ///   - backgroundTimeBudget: See ``backgroundTimeBudget``.
    ///   - expirationLead: See ``expirationLead``.
    ///   - handlerTimeBudget: See ``handlerTimeBudget``.
    ///   - assertionLimit: See ``assertionLimit``.
    ///   - expiringActivityLimit: See ``expiringActivityLimit``.
    ///   - longRunningTaskWarningAge: See ``longRunningTaskWarningAge``.
    ///   - minimumTimeForExpirationHandler: See ``minimumTimeForExpirationHandler``.
    ///   - initialState: See ``initialState``.
    ///   - debuggerAttached: See ``debuggerAttached``.
    public init(
        backgroundTimeBudget: TimeInterval = 30,
        expirationLead: TimeInterval = 4,
        handlerTimeBudget: TimeInterval = 5,
        assertionLimit: Int = 1000,
        expiringActivityLimit: Int = 64,
        longRunningTaskWarningAge: TimeInterval = 30,
        minimumTimeForExpirationHandler: TimeInterval = 5,
        initialState: SimulatedAppState = .foreground,
        debuggerAttached: Bool = false
    ) {
        self.backgroundTimeBudget = backgroundTimeBudget
        self.expirationLead = expirationLead
        self.handlerTimeBudget = handlerTimeBudget
        self.assertionLimit = assertionLimit
        self.expiringActivityLimit = expiringActivityLimit
        self.longRunningTaskWarningAge = longRunningTaskWarningAge
        self.minimumTimeForExpirationHandler = minimumTimeForExpirationHandler
        self.initialState = initialState
        self.debuggerAttached = debuggerAttached
    }

    /// Current iOS (13.4 and later): 30 s of background time, handlers 4 s before it is gone, the
    /// 30-second warning. The same as ``init()``.
    public static var current: SimulatorConfiguration { SimulatorConfiguration() }

    /// iOS 13.0 to 13.3: 30 s of background time, no 30-second warning yet.
    public static var iOS13Through13Point3: SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        configuration.longRunningTaskWarningAge = .infinity
        return configuration
    }

    /// iOS 7 to 12: about 180 s of background time (`permittedBackgroundDuration: 180` in crash
    /// reports of the time), no 30-second warning.
    public static var iOS7Through12: SimulatorConfiguration {
        var configuration = iOS13Through13Point3
        configuration.backgroundTimeBudget = 180
        return configuration
    }

    /// Before iOS 7: about 600 s (10 minutes) of background time, no 30-second warning.
    public static var iOS6: SimulatorConfiguration {
        var configuration = iOS13Through13Point3
        configuration.backgroundTimeBudget = 600
        return configuration
    }
}
