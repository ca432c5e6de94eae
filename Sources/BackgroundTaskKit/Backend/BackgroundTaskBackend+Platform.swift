import Foundation

#if canImport(UIKit) && !os(watchOS)
    import UIKit
#endif

// Each accessor returns one instance per process: the backends keep their identifiers (and `.uiApplication` its
// resolved application) in state shared by copies, so a task begun through one access can be ended through another.

// MARK: - Everywhere
private let sharedUnlimitedBackend = UnlimitedBackend()

extension BackgroundTaskBackend where Self == UnlimitedBackend {
    /// Grants all assertions and expires none: the default where nothing suspends the process (Linux, tools, servers).
    public static var unlimited: Self { sharedUnlimitedBackend }
}

// MARK: - iOS, tvOS, visionOS, Mac Catalyst
#if canImport(UIKit) && !os(watchOS)
    // Looked up at run time, as app extensions lack `UIApplication.shared` (see `UIApplication+RunTime.swift`).
    private let sharedApplicationBackend = ApplicationBackend<UIApplication>(
        lookingUp: { UIApplication.sharedAtRunTime })

    extension BackgroundTaskBackend where Self == ApplicationBackend<UIApplication> {
        /// `UIApplication.shared`'s backend, resolved lazily on the main actor; no set-up (see ``ApplicationBackend``).
        ///
        /// > Important: Unavailable in app extensions; use ``BackgroundTaskBackend/platformDefault`` there.
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
        /// Expiring activities of `ProcessInfo.processInfo`, for app extensions and watchOS apps; grant timeout 2 s.
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
        /// .automaticTerminationDisabled]`: like an iOS background task they keep the app out of App Nap and from
        /// termination while work runs, but let an idle Mac sleep, so a task never ended costs no battery. For work
        /// that must keep the Mac awake, create a ``ProcessActivityBackend`` with `.userInitiated`.
        public static var processActivity: Self { sharedProcessActivityBackend }
    }
#endif

// MARK: - The platform's default
#if canImport(UIKit) && !os(watchOS)
    /// Default on iOS, tvOS, visionOS, Mac Catalyst: `UIApplication` in an app, expiring activities in an extension.
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
        /// The platform's default: ``BackgroundTaskBackend/uiApplication`` in an app,
        /// ``BackgroundTaskBackend/expiringActivity`` in an app extension (`.appex` bundle), decided once per process.
        public static var platformDefault: Self { sharedPlatformDefaultBackend }
    #elseif os(watchOS)
        /// The platform's default backend: ``BackgroundTaskBackend/expiringActivity``.
        public static var platformDefault: Self { sharedExpiringActivityBackend }
    #elseif os(macOS)
        /// The platform's default backend: ``BackgroundTaskBackend/processActivity``.
        public static var platformDefault: Self { sharedProcessActivityBackend }
    #else
        /// The platform's default backend: ``BackgroundTaskBackend/unlimited``.
        public static var platformDefault: Self { sharedUnlimitedBackend }
    #endif
}
