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

    // `BGContinuedProcessingTask` is in iOS 26 SDKs only: UIKit's module version is 9000 or more from iOS 26 on
    // (8506 in iOS 18.6, 9126 in iOS 26.2), which no compiler check can tell.
    #if os(iOS) && !targetEnvironment(macCatalyst) && canImport(UIKit, _version: 9000)
        @available(iOS 26.0, *)
        extension BGContinuedProcessingTask: ContinuedProcessingTaskMirroring {}
        @available(iOS 26.0, *)
        extension BGContinuedProcessingTaskRequest: ContinuedProcessingRequestMirroring {}
    #endif

    /// Continued processing over `BGTaskScheduler.shared` on iOS 26; `nil` before, and where the SDK lacks it.
    private func systemContinuedProcessing() -> (any ContinuedProcessingScheduling)? {
        #if os(iOS) && !targetEnvironment(macCatalyst) && canImport(UIKit, _version: 9000)
            if #available(iOS 26.0, *) {
                return SystemContinuedProcessing(
                    BGTaskScheduler.shared,
                    request: { BGContinuedProcessingTaskRequest(identifier: $0, title: $1, subtitle: $2) },
                    task: BGContinuedProcessingTask.self,
                    supportsBackgroundGPU: { BGTaskScheduler.supportedResources.contains(.gpu) })
            }
        #endif
        return nil
    }

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
            environment: { .infoPlist(launch: launchMonitor) },
            continuedProcessing: systemContinuedProcessing()))

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
