// Apple-only: the method exchange behind `BackgroundTaskTracer.install(configuration:)`. Listed, with
// what a reviewer on a Mac must check, in Documentation/AppleOnlyCode.md. Everything it calls is the
// platform-independent tracer, tested on Linux through `SimulatedApplication`.

#if canImport(UIKit) && !os(watchOS)
    import BackgroundTaskKit
    import ObjectiveC
    import UIKit

    extension BackgroundTaskTracer {
        /// Installs a tracer on `UIApplication`: from now on every `beginBackgroundTask` and
        /// `endBackgroundTask` call in the process, by any code, goes through it. Call it once, early,
        /// on the main thread (in `application(_:didFinishLaunchingWithOptions:)`); later calls return
        /// the tracer already installed, with its configuration.
        ///
        /// - Parameter configuration: What the tracer does besides watching (rescue, backtraces).
        /// - Returns: The installed tracer.
        @available(iOSApplicationExtension, unavailable)
        @available(tvOSApplicationExtension, unavailable)
        @available(visionOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        @MainActor
        @discardableResult
        public static func install(configuration: Configuration = Configuration()) -> BackgroundTaskTracer {
            installation.withLock { installed in
                if let installed { return installed }
                let tracer = BackgroundTaskTracer(configuration: configuration)
                InterceptedUIApplication.exchangeMethods(tracer: tracer)
                installed = tracer
                return tracer
            }
        }
    }

    /// `UIApplication` seen through the tracer: the original implementations of the three methods,
    /// and the exchange that routes the public ones through ``BackgroundTaskTracer``.
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    final class InterceptedUIApplication: TracedApplication, @unchecked Sendable {  // immutable after init
        typealias TaskIdentifier = UIBackgroundTaskIdentifier
        typealias Handler = @convention(block) () -> Void
        private typealias BeginNamed =
            @convention(c) (AnyObject, Selector, NSString?, Handler?) -> UIBackgroundTaskIdentifier
        private typealias BeginUnnamed = @convention(c) (AnyObject, Selector, Handler?) -> UIBackgroundTaskIdentifier
        private typealias End = @convention(c) (AnyObject, Selector, UIBackgroundTaskIdentifier) -> Void

        // Selectors, not calls. bgtask:ignore BT001 BT003
        private static let beginNamed = #selector(UIApplication.beginBackgroundTask(withName:expirationHandler:))
        private static let beginUnnamed = #selector(UIApplication.beginBackgroundTask(expirationHandler:))
        private static let end = #selector(UIApplication.endBackgroundTask(_:))

        /// The receiver of the intercepted calls (the app's one `UIApplication`).
        private let application: AnyObject
        private let originalEnd: End

        private init(application: AnyObject, originalEnd: End) {
            self.application = application
            self.originalEnd = originalEnd
        }

        /// Ends with the original implementation: the rescue's end, unseen by the tracer.
        func endBackgroundTaskBypassingTracer(_ identifier: UIBackgroundTaskIdentifier) {
            originalEnd(application, Self.end, identifier)
        }

        /// Replaces the three methods' implementations with blocks that call the tracer, which calls
        /// the originals. Once per process (`BackgroundTaskTracer.install(configuration:)` holds its
        /// lock around it).
        static func exchangeMethods(tracer: BackgroundTaskTracer) {
            let type: AnyClass = UIApplication.self
            guard let namedMethod = class_getInstanceMethod(type, beginNamed),
                let unnamedMethod = class_getInstanceMethod(type, beginUnnamed),
                let endMethod = class_getInstanceMethod(type, end)
            else { return }
            let originalNamed = unsafeBitCast(method_getImplementation(namedMethod), to: BeginNamed.self)
            let originalUnnamed = unsafeBitCast(method_getImplementation(unnamedMethod), to: BeginUnnamed.self)
            let originalEnd = unsafeBitCast(method_getImplementation(endMethod), to: End.self)
            let receivers = Locked<InterceptedUIApplication?>(nil)
            func intercepted(_ application: AnyObject) -> InterceptedUIApplication {
                receivers.withLock { cached in
                    if let cached, cached.application === application { return cached }
                    let made = InterceptedUIApplication(application: application, originalEnd: originalEnd)
                    cached = made
                    return made
                }
            }
            let depth = tracer.configuration.backtraceDepth
            let skipped = interceptorFrames()

            let named: @convention(block) (AnyObject, NSString?, Handler?) -> UIBackgroundTaskIdentifier = {
                application, name, handler in
                let callStack = TracedCallStack.capture(frames: depth, skipping: skipped)
                let identifier = tracer.interceptBegin(
                    on: intercepted(application), named: name.map { $0 as String },
                    expirationHandler: mainActorHandler(handler), callStack: callStack
                ) { _, passed in
                    originalNamed(application, beginNamed, name, blockHandler(passed))
                }
                return withExtendedLifetime(callStack) { identifier }
            }
            let unnamed: @convention(block) (AnyObject, Handler?) -> UIBackgroundTaskIdentifier = {
                application, handler in
                let callStack = TracedCallStack.capture(frames: depth, skipping: skipped)
                let identifier = tracer.interceptBegin(
                    on: intercepted(application), named: nil, expirationHandler: mainActorHandler(handler),
                    callStack: callStack
                ) { _, passed in
                    originalUnnamed(application, beginUnnamed, blockHandler(passed))
                }
                return withExtendedLifetime(callStack) { identifier }
            }
            let ending: @convention(block) (AnyObject, UIBackgroundTaskIdentifier) -> Void = {
                application, identifier in
                tracer.interceptEnd(on: intercepted(application), identifier) { identifier in
                    originalEnd(application, end, identifier)
                }
            }
            method_setImplementation(namedMethod, imp_implementationWithBlock(named))
            method_setImplementation(unnamedMethod, imp_implementationWithBlock(unnamed))
            method_setImplementation(endMethod, imp_implementationWithBlock(ending))
        }
    }

    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    extension InterceptedUIApplication {
        /// The frames a block made like the interceptors' puts between its closure and the code that
        /// sent the message (a block invoke function that calls the Swift closure, in debug builds),
        /// measured once: a probe block of the same shape is called through its IMP, as
        /// `objc_msgSend` calls it, from here.
        @inline(never)
        static func interceptorFrames() -> Int {
            let captured = Locked(TracedCallStack(addresses: []))
            let probe: @convention(block) (AnyObject, NSString?, Handler?) -> UIBackgroundTaskIdentifier = { _, _, _ in
                let stack = TracedCallStack.capture(frames: 16)
                captured.withLock { $0 = stack }
                return .invalid
            }
            let implementation = imp_implementationWithBlock(probe)
            defer { imp_removeBlock(implementation) }
            let reference = TracedCallStack.returnAddressInCaller()
            _ = unsafeBitCast(implementation, to: BeginNamed.self)(NSObject(), beginNamed, nil, nil)
            return TracedCallStack.interceptorFrames(in: captured.withLock { $0 }, caller: reference)
        }
    }

    /// The caller's Objective-C block as the tracer's handler type (`nil` stays `nil`).
    private func mainActorHandler(_ block: (@convention(block) () -> Void)?) -> (@MainActor @Sendable () -> Void)? {
        guard let block else { return nil }
        let box = UncheckedSendableBox(block)
        return { box.value() }
    }

    /// The tracer's handler as the block the original implementation takes; it runs on whatever thread
    /// the system calls it on, as the caller's block would.
    private func blockHandler(_ handler: (@MainActor @Sendable () -> Void)?) -> (@convention(block) () -> Void)? {
        guard let handler else { return nil }
        let unisolated = unsafeBitCast(handler, to: (@Sendable () -> Void).self)
        return { unisolated() }
    }
#endif
