import Foundation

/// A backend that forwards to `UIApplication`'s background-task assertions (iOS, tvOS, visionOS and Mac Catalyst apps).
///
/// Written over the ``ApplicationBackgroundTasking`` mirror so that its logic runs on every platform; apps use
/// `.uiApplication`, an `ApplicationBackend<UIApplication>`. Identifiers convert one to one (`.invalid` is "not
/// granted", `nil`); names and expiration handlers pass through unchanged. `UIApplication.shared` is main-actor
/// isolated; `beginBackgroundTask` and `endBackgroundTask` work on any thread:
/// - ``init(_:)`` takes the application (say, handed over on the main actor at launch); every call then works anywhere.
/// - ``init(resolving:)`` resolves it lazily. A first use **on** the main thread calls the resolver there and caches
///   the result. A first use **off** it never blocks or crashes, and is granted a provisional identifier at once; the
///   resolution and real `beginBackgroundTask` follow on the main queue (`DispatchQueue.main.async`, never `sync`),
///   normally within milliseconds. Ending the provisional identifier ends the real assertion, or cancels the begin not
///   made yet; the handler passes through unchanged. Until then ``backgroundTimeRemaining`` is `nil` there.
/// - ``resolveNow()`` (at launch, on the main actor) resolves at once, even for a first begin elsewhere. Optional.
///
/// The cache is shared by all copies. "On the main thread" means where the main actor runs: the main thread in an app;
/// a main-queue block in a process that called `dispatch_main()` (a command-line tool, the Linux test runner).
/// ```swift
/// let backend: ApplicationBackend<UIApplication> = .uiApplication
/// backend.resolveNow()  // at launch, on the main actor
/// ```
/// > Important: UIKit calls the expiration handler on the main thread; it must end the assertion before it returns.
/// > This backend never ends a granted identifier by itself: only ``endBackgroundTask(_:)`` does.
public struct ApplicationBackend<Application: ApplicationBackgroundTasking>: BackgroundTaskBackend {
    private let resolver: ApplicationResolver<Application>
    private let deferred = DeferredBegins<Application>()

    /// Creates a backend over an application you already hold.
    /// - Parameter application: The application, for example `UIApplication.shared` read on the main actor.
    public init(_ application: Application) {
        resolver = ApplicationResolver(application)
    }

    /// Creates a backend resolving the application lazily, at most once, on the main actor (see the type's discussion).
    /// - Parameter resolve: Returns the application; called on the main actor.
    public init(resolving resolve: @escaping @MainActor @Sendable () -> Application) {
        resolver = ApplicationResolver(resolving: { resolve() })
    }

    /// Creates a backend that looks the application up lazily on the main actor, as ``init(resolving:)`` does, until
    /// `lookUp` (also run there) finds one (`nil`: none yet, or none in this process; begins are refused meanwhile).
    package init(lookingUp lookUp: @escaping @MainActor @Sendable () -> Application?) {
        resolver = ApplicationResolver(resolving: lookUp)
    }

    /// Resolves the application now, on the main actor at launch, so no thread finds it unresolved; idempotent.
    @MainActor
    public func resolveNow() {
        resolver.resolveOnMainActor()
    }

    /// Raises an assertion through the application.
    /// - Parameters:
    ///   - name: The task's name, passed through unchanged (the system prints it in its warnings).
    ///   - expirationHandler: Passed through unchanged; UIKit calls it on the main thread.
    /// - Returns: The identifier, or `nil` for `.invalid`. Before resolution, a begin off the main thread gets a
    ///   provisional identifier and one by the resolver itself `nil`; with `nil` the handler is never called.
    ///
    /// > Important: Off the main thread, the handler may run before this returns (UIKit calls it on the main thread).
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
    /// `.invalid`, and any call before resolution (nothing granted yet), are ignored; a provisional identifier ends the
    /// assertion it became or cancels its begin. Ending twice reaches the application twice; UIKit only logs it.
    /// - Parameter identifier: An identifier returned by ``beginBackgroundTask(named:expirationHandler:)``.
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

    /// The app's background state, from `applicationState` and UIKit's background/foreground notifications (used on the
    /// main actor), if the application offers them (``ApplicationStateMirroring``; `UIApplication` does); else `nil`.
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

    /// The application's background time left; `nil` in the foreground (where UIKit reports
    /// `Double.greatestFiniteMagnitude`), for any non-finite value, and until the application is resolved.
    public var backgroundTimeRemaining: TimeInterval? {
        guard let remaining = resolver.application()?.backgroundTimeRemaining else { return nil }
        guard remaining.isFinite, remaining < .greatestFiniteMagnitude else { return nil }
        return remaining
    }
}
