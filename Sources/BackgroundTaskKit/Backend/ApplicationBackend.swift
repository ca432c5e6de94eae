import Foundation

/// A backend that forwards to `UIApplication`'s background-task assertions (iOS, tvOS, visionOS and
/// Mac Catalyst apps).
///
/// Written over the ``ApplicationBackgroundTasking`` mirror so that all of its logic runs on every
/// platform; in an app you use `.uiApplication`, which is an
/// `ApplicationBackend<UIApplication>`. The adapter converts identifiers one to one (`.invalid`
/// means "not granted", `nil`), passes names and expiration handlers through unchanged, and reports
/// the foreground value of `backgroundTimeRemaining` (`Double.greatestFiniteMagnitude`) as `nil`.
///
/// ## Getting hold of the application
///
/// `UIApplication.shared` is isolated to the main actor, while `beginBackgroundTask` and
/// `endBackgroundTask` may be called from any thread. The rule:
///
/// - ``init(_:)`` takes the application directly, for example handed over on the main actor at
///   launch. Every call works on every thread from then on.
/// - ``init(resolving:)`` resolves it lazily. A first use **on** the main thread calls the resolver
///   there and caches the result. A first use **off** the main thread never blocks and never crashes,
///   and its begin is granted: it gets a provisional identifier at once, and the resolution and the
///   real `beginBackgroundTask` follow on the main queue (`DispatchQueue.main.async`, never `sync`),
///   normally within milliseconds. Ending the provisional identifier ends the real assertion, or
///   cancels the begin if the main queue has not made it yet; the expiration handler is passed
///   through unchanged. Until then ``backgroundTimeRemaining`` is `nil` there.
/// - ``resolveNow()``, called on the main actor (at launch), resolves at once, so that even the first
///   begin off the main thread reaches the application immediately. Nothing needs it.
///
/// The cache is shared by every copy of the backend. "On the main thread" means where the main actor
/// runs: the main thread in an app; in a process that called `dispatch_main()` (a command-line tool,
/// the test runner on Linux), inside a block of the main queue.
///
/// ```swift
/// // In application(_:didFinishLaunchingWithOptions:), on the main actor:
/// let backend: ApplicationBackend<UIApplication> = .uiApplication
/// backend.resolveNow()
///
/// // Anywhere, on any thread:
/// if let id = backend.beginBackgroundTask(named: "Upload", expirationHandler: { cancelUpload() }) {
///     // ... later, exactly once:
///     backend.endBackgroundTask(id)
/// }
/// ```
///
/// > Important: UIKit calls the expiration handler on the main thread; it must end the assertion
/// > before it returns. An identifier the application granted is ended only by
/// > ``endBackgroundTask(_:)``; this backend never ends one by itself.
public struct ApplicationBackend<Application: ApplicationBackgroundTasking>: BackgroundTaskBackend {
    private let resolver: ApplicationResolver<Application>
    private let deferred = DeferredBegins<Application>()

    /// Creates a backend over an application you already hold.
    ///
    /// - Parameter application: The application, for example `UIApplication.shared` read on the main
    ///   actor.
    public init(_ application: Application) {
        resolver = ApplicationResolver(application)
    }

    /// Creates a backend that resolves the application lazily, on the main actor.
    ///
    /// The resolver is called at most once, always on the main actor: at the first use on the main
    /// thread, at ``resolveNow()``, or on the main queue after a first use off the main thread (whose
    /// begin is granted a provisional identifier meanwhile; see the type's discussion).
    ///
    /// ```swift
    /// let backend = ApplicationBackend(resolving: { UIApplication.shared })
    /// ```
    ///
    /// - Parameter resolve: Returns the application; called on the main actor.
    public init(resolving resolve: @escaping @MainActor @Sendable () -> Application) {
        resolver = ApplicationResolver(resolving: { resolve() })
    }

    /// Creates a backend that looks the application up lazily, on the main actor, as
    /// ``init(resolving:)`` does, until `lookUp` finds one (`nil`: none yet, or none in this process;
    /// meanwhile begins are not granted).
    ///
    /// - Parameter lookUp: Returns the application, or `nil`; called on the main actor.
    package init(lookingUp lookUp: @escaping @MainActor @Sendable () -> Application?) {
        resolver = ApplicationResolver(resolving: lookUp)
    }

    /// Resolves the application now, so that calls from background threads never find it unresolved.
    ///
    /// Call it once on the main actor, early (at launch). Does nothing when the application is already
    /// known; safe to call again.
    @MainActor
    public func resolveNow() {
        resolver.resolveOnMainActor()
    }

    /// Raises an assertion through the application.
    ///
    /// - Parameters:
    ///   - name: The task's name, passed through unchanged (the system prints it in its warnings).
    ///   - expirationHandler: Passed through unchanged; UIKit calls it on the main thread.
    /// - Returns: The application's identifier, or `nil` when it returned `.invalid`. Before the
    ///   application is resolved, a begin off the main thread returns a provisional identifier (see the
    ///   type's discussion), and one made by the resolver itself returns `nil`. When `nil`, the handler
    ///   is never called by this backend's request.
    ///
    /// > Important: The handler may run before this method returns when you call it off the main
    /// > thread: UIKit calls it on the main thread as soon as time runs out.
    public func beginBackgroundTask(
        named name: String?,
        expirationHandler: (@MainActor @Sendable () -> Void)?
    ) -> BackgroundTaskIdentifier? {
        guard let application = resolver.application() else {
            guard !MainActorContext.isCurrent else { return nil }  // the resolver itself is beginning
            return deferred.begin(named: name, expirationHandler: expirationHandler, resolver: resolver)
        }
        // Marked, so that an installed `BackgroundTaskTracer` leaves it to the engine's ledger.
        let identifier = TracerThreadFlags.packageCall {
            application.beginBackgroundTask(withName: name, expirationHandler: expirationHandler)
        }
        guard identifier != .invalid else { return nil }
        return BackgroundTaskIdentifier(rawValue: identifier.rawValue)
    }

    /// Ends an assertion the application granted.
    ///
    /// An identifier whose raw value is the application's `.invalid` is ignored, and so is any call
    /// before the application is resolved (nothing can have been granted yet). A provisional
    /// identifier ends the assertion it became, or cancels its begin. Ending an identifier twice
    /// reaches the application twice; UIKit only logs it.
    ///
    /// - Parameter identifier: An identifier returned by
    ///   ``beginBackgroundTask(named:expirationHandler:)``.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        if DeferredBegins<Application>.isProvisional(identifier) {
            if let begun = deferred.end(identifier), let application = resolver.resolvedApplication {
                TracerThreadFlags.packageCall { application.endBackgroundTask(begun) }
            }
            return
        }
        let applicationIdentifier = Application.TaskIdentifier(rawValue: identifier.rawValue)
        guard applicationIdentifier != .invalid, let application = resolver.resolvedApplication else { return }
        TracerThreadFlags.packageCall { application.endBackgroundTask(applicationIdentifier) }
    }

    /// Reports the app's background state from `applicationState` and UIKit's background and
    /// foreground notifications, when the application offers them (``ApplicationStateMirroring``;
    /// `UIApplication` does); `nil` otherwise. The state is read and the notifications observed on
    /// the main actor.
    public var applicationStateReporting: (any ApplicationStateReporting)? {
        guard let stateType = Application.self as? any ApplicationStateMirroring.Type else { return nil }
        return Self.monitor(of: stateType, resolver: resolver)
    }

    private static func monitor<Mirror: ApplicationStateMirroring>(
        of _: Mirror.Type,
        resolver: ApplicationResolver<Application>
    ) -> ApplicationStateMonitor {
        ApplicationStateMonitor(
            isInBackground: {
                (resolver.application() as? Mirror).map { $0.applicationState.rawValue == Mirror.backgroundRawValue }
            },
            names: { (Mirror.didEnterBackgroundNotification, Mirror.willEnterForegroundNotification) }
        )
    }

    /// The application's background time left, or `nil` while it is unlimited.
    ///
    /// `nil` in the foreground (where UIKit reports `Double.greatestFiniteMagnitude`), for any value
    /// that is not finite, and while the application is not resolved yet.
    public var backgroundTimeRemaining: TimeInterval? {
        guard let remaining = resolver.application()?.backgroundTimeRemaining else { return nil }
        guard remaining.isFinite, remaining < .greatestFiniteMagnitude else { return nil }
        return remaining
    }
}
