import Foundation

#if canImport(UIKit) && !os(watchOS)
    import UIKit
#endif

// Each accessor returns one instance per process: the backends keep their identifiers (and
// `.uiApplication` its resolved application) in state shared by copies, so a task begun through one
// access can be ended through another.

// MARK: - Everywhere

private let sharedUnlimitedBackend = UnlimitedBackend()

extension BackgroundTaskBackend where Self == UnlimitedBackend {
    /// The backend that grants every assertion and never expires one: the default where nothing
    /// suspends the process (Linux, command-line tools, servers).
    ///
    /// ```swift
    /// func save(using backend: some BackgroundTaskBackend) { ... }
    /// save(using: .unlimited)
    /// ```
    public static var unlimited: Self { sharedUnlimitedBackend }
}

// MARK: - iOS, tvOS, visionOS, Mac Catalyst

#if canImport(UIKit) && !os(watchOS)
    // `UIApplication.shared` is unavailable in app extensions, and Xcode compiles this package for
    // them too: the application is looked up at run time instead (see `UIApplication+RunTime.swift`).
    private let sharedApplicationBackend = ApplicationBackend<UIApplication>(
        lookingUp: { UIApplication.sharedAtRunTime })

    extension BackgroundTaskBackend where Self == ApplicationBackend<UIApplication> {
        /// The backend over `UIApplication.shared`, resolved lazily on the main actor.
        ///
        /// The first use on the main thread resolves `UIApplication.shared`; a first begin off the
        /// main thread is granted at once under a provisional identifier, and reaches the application
        /// when the main queue has resolved it (see ``ApplicationBackend``). No set-up is needed.
        ///
        /// ```swift
        /// let backend: some BackgroundTaskBackend = .uiApplication
        /// ```
        ///
        /// > Important: Unavailable in app extensions, which have no `UIApplication.shared`; use
        /// > ``BackgroundTaskBackend/platformDefault`` (which picks expiring activities there) or
        /// > ``BackgroundTaskBackend/expiringActivity``.
        @available(iOSApplicationExtension, unavailable)
        @available(tvOSApplicationExtension, unavailable)
        @available(visionOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        public static var uiApplication: Self { sharedApplicationBackend }
    }
#endif

// MARK: - iOS, tvOS, watchOS, visionOS, Mac Catalyst (apps and extensions)

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    private let sharedExpiringActivityBackend = ExpiringActivityBackend(ProcessInfo.processInfo)

    extension BackgroundTaskBackend where Self == ExpiringActivityBackend<ProcessInfo> {
        /// The backend over `ProcessInfo.processInfo.performExpiringActivity(withReason:using:)`, for app
        /// extensions and watchOS apps; its grant timeout is the default, 2 seconds.
        ///
        /// ```swift
        /// let backend: some BackgroundTaskBackend = .expiringActivity
        /// ```
        public static var expiringActivity: Self { sharedExpiringActivityBackend }
    }
#endif

// MARK: - macOS

#if os(macOS)
    private let sharedProcessActivityBackend = ProcessActivityBackend(
        ProcessInfo.processInfo,
        options: [.userInitiatedAllowingIdleSystemSleep, .suddenTerminationDisabled, .automaticTerminationDisabled]
    )

    extension BackgroundTaskBackend where Self == ProcessActivityBackend<ProcessInfo> {
        /// The backend over `ProcessInfo.processInfo.beginActivity(options:reason:)`, for macOS apps.
        ///
        /// Its activities use `[.userInitiatedAllowingIdleSystemSleep, .suddenTerminationDisabled,
        /// .automaticTerminationDisabled]`: they keep the app out of App Nap and from being terminated
        /// while work runs, like an iOS background task, but let an idle Mac go to sleep, so a task that
        /// is never ended costs no battery. Create a ``ProcessActivityBackend`` with `.userInitiated` if
        /// your work must also keep the Mac awake.
        public static var processActivity: Self { sharedProcessActivityBackend }
    }
#endif

// MARK: - The platform's default

#if canImport(UIKit) && !os(watchOS)
    /// The backend apps use by default on this platform: `UIApplication` in an app, expiring activities
    /// in an app extension, on iOS, tvOS, visionOS and Mac Catalyst.
    public typealias PlatformDefaultBackend = ApplicationOrExtensionBackend<UIApplication, ProcessInfo>

    private let sharedPlatformDefaultBackend = PlatformDefaultBackend(
        isAppExtension: PlatformDefaultBackend.isRunningInAppExtension(bundleURL: Bundle.main.bundleURL),
        application: sharedApplicationBackend,
        activities: sharedExpiringActivityBackend
    )
#elseif os(watchOS)
    /// The backend apps use by default on this platform: expiring activities on watchOS.
    public typealias PlatformDefaultBackend = ExpiringActivityBackend<ProcessInfo>
#elseif os(macOS)
    /// The backend apps use by default on this platform: process activities on macOS.
    public typealias PlatformDefaultBackend = ProcessActivityBackend<ProcessInfo>
#else
    /// The backend apps use by default on this platform: unlimited, as nothing suspends the process.
    public typealias PlatformDefaultBackend = UnlimitedBackend
#endif

extension BackgroundTaskBackend where Self == PlatformDefaultBackend {
    #if canImport(UIKit) && !os(watchOS)
        /// The platform's default backend: ``BackgroundTaskBackend/uiApplication`` in an app,
        /// ``BackgroundTaskBackend/expiringActivity`` in an app extension (a bundle ending in
        /// `.appex`), decided once per process.
        public static var platformDefault: Self { sharedPlatformDefaultBackend }
    #elseif os(watchOS)
        /// The platform's default backend: ``BackgroundTaskBackend/expiringActivity``.
        public static var platformDefault: Self { sharedExpiringActivityBackend }
    #elseif os(macOS)
        /// The platform's default backend: ``BackgroundTaskBackend/processActivity``.
        public static var platformDefault: Self { sharedProcessActivityBackend }
    #else
        /// The platform's default backend: ``BackgroundTaskBackend/unlimited``.
        ///
        /// ```swift
        /// let backend: some BackgroundTaskBackend = .platformDefault
        /// ```
        public static var platformDefault: Self { sharedUnlimitedBackend }
    #endif
}
