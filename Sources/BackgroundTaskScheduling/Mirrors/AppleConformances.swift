// The only code of this module needing an Apple SDK: empty conformances and one-line accessors
// (Documentation/AppleOnlyCode.md). The mirror protocols copy the SDK declarations; the tests' stand-ins prove
// everywhere that identical declarations satisfy them.

import Foundation

#if canImport(BackgroundTasks) && !os(macOS) && !os(watchOS)
    import BackgroundTasks
    import UIKit

    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    extension BGTaskScheduler: TaskSchedulerMirroring {}
    extension BGTask: ScheduledTaskMirroring {}
    extension BGTaskRequest: TaskRequestMirroring {}
    extension BGProcessingTaskRequest: ProcessingTaskRequestMirroring {}
    extension UIApplication: ApplicationLaunchMirroring {}

    // Made on first use: the launch monitor starts watching then (register at launch, on the main thread).
    private let launchMonitor = LaunchMonitor(UIApplication.self, application: { UIApplication.sharedAtRunTime })

    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    private let sharedScheduler = SafeTaskScheduler(
        backend: SystemTaskScheduler(
            BGTaskScheduler.shared,
            appRefreshRequest: { BGAppRefreshTaskRequest(identifier: $0) },
            processingRequest: { BGProcessingTaskRequest(identifier: $0) },
            environment: { .infoPlist(launch: launchMonitor) }))

    extension SafeTaskScheduler {
        /// The scheduler over `BGTaskScheduler.shared`, checking the app's Info.plist and launch.
        ///
        /// > Important: Unavailable in app extensions: only the app registers launch handlers.
        @available(iOSApplicationExtension, unavailable)
        @available(tvOSApplicationExtension, unavailable)
        @available(visionOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        public static var shared: SafeTaskScheduler { sharedScheduler }
    }
#else
    private let sharedScheduler = SafeTaskScheduler(backend: UnavailableTaskScheduler())

    extension SafeTaskScheduler {
        /// Here there is no `BGTaskScheduler`: registrations and submissions throw
        /// ``TaskSchedulingError/Code/unavailable``.
        public static var shared: SafeTaskScheduler { sharedScheduler }
    }
#endif
