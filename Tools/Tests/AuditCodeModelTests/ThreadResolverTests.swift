import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// Where a call runs, from the closures around it, its body's declaration and type, and the project's callers.
struct ThreadResolverTests {
    /// Where each `endBackgroundTask` in `source` runs, by line: `main`, `off` (shown), `off?` (not shown) or
    /// `unknown`.
    private func threads(_ source: String, path: String = "Work.swift") -> [String] {
        let file = ModelFixture.read(path, source)
        let resolver = ThreadResolver(index: ProjectIndex(files: [file]))
        return file.bodies.flatMap { body in
            body.calls.compactMap { call -> String? in
                guard case .end = SystemCall(call) else { return nil }
                let answer =
                    switch resolver.runsOn(call, in: body) {
                    case .main: "main"
                    case .offMain(_, true): "off"
                    case .offMain(_, false): "off?"
                    case .unknown: "unknown"
                    }
                return "\(call.location.line) \(answer)"
            }
        }
    }

    @Test func aSyncBlockRunsOnTheCallingThreadNotOnTheQueues() {
        #expect(
            threads(
                """
                final class Work: UIViewController {
                    override func viewDidLoad() {
                        DispatchQueue.global().sync { app.endBackgroundTask(a) }
                        dispatch_sync(dispatch_get_global_queue(0, 0)) { app.endBackgroundTask(b) }
                        DispatchQueue.global().async { app.endBackgroundTask(c) }
                    }
                }
                """) == ["3 main", "4 main", "5 off"])
    }

    @Test func theClosuresAroundACallSayWhereItRuns() {
        #expect(
            threads(
                """
                func work() {
                    DispatchQueue.main.async { app.endBackgroundTask(a) }
                    DispatchQueue.global().async { app.endBackgroundTask(b) }
                    queue.async { app.endBackgroundTask(c) }
                    Task.detached { app.endBackgroundTask(d) }
                    Task { app.endBackgroundTask(e) }
                    Task { @MainActor in app.endBackgroundTask(f) }
                    session.upload { app.endBackgroundTask(g) }
                }
                """) == ["2 main", "3 off", "4 off?", "5 off", "6 off", "7 main", "8 unknown"])
    }

    @Test func objectiveCQueuesAreReadFromDispatchAsync() {
        #expect(
            threads(
                """
                @implementation Work
                - (void)work {
                    dispatch_async(dispatch_get_main_queue(), ^{ [app endBackgroundTask:a]; });
                    dispatch_async(dispatch_get_global_queue(0, 0), ^{ [app endBackgroundTask:b]; });
                    dispatch_async(self.networkingQueue, ^{ [app endBackgroundTask:c]; });
                }
                @end
                """, path: "Work.m") == ["3 main", "4 off", "5 off?"])
    }

    @Test func theDeclarationItsTypeAndItsCallersSayWhereABodyRuns() {
        #expect(
            threads(
                """
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func flush() { app.endBackgroundTask(a) }
                }
                final class Store {
                    @MainActor func save() { app.endBackgroundTask(b) }
                    func load() async { app.endBackgroundTask(c) }
                    func applicationDidEnterBackground() { app.endBackgroundTask(d) }
                    func onQueue() { app.endBackgroundTask(e) }
                    func fromMain() { app.endBackgroundTask(f) }
                    func nobodyCalls() { app.endBackgroundTask(g) }
                    func schedule() {
                        DispatchQueue.global().async { self.onQueue() }
                        DispatchQueue.main.async { self.fromMain() }
                    }
                }
                actor Journal {
                    func write() { Task { app.endBackgroundTask(h) } }
                }
                """) == ["2 main", "5 main", "6 off", "7 main", "8 off", "9 main", "10 unknown", "17 off"])
    }

    @Test func observersOfUIKitsApplicationNotificationsRunOnMain() {
        #expect(
            threads(
                """
                final class Monitor {
                    init() {
                        NotificationCenter.default.addObserver(
                            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
                        ) { _ in app.endBackgroundTask(a) }
                        NotificationCenter.default.addObserver(
                            self, selector: #selector(appBecameBackground),
                            name: UIApplication.didEnterBackgroundNotification, object: nil)
                        NotificationCenter.default.addObserver(
                            forName: .downloadFinished, object: nil, queue: nil
                        ) { _ in app.endBackgroundTask(b) }
                    }
                    @objc func appBecameBackground() { app.endBackgroundTask(c) }
                }
                """) == ["5 main", "11 unknown", "13 main"])
        #expect(
            threads(
                """
                @implementation Session
                - (instancetype)init {
                    [[NSNotificationCenter defaultCenter] addObserver:self selector:@selector(appBecameBackground:) name:UIApplicationDidEnterBackgroundNotification object:nil];
                    return self;
                }
                - (void)appBecameBackground:(NSNotification *)note { [app endBackgroundTask:a]; }
                @end
                """, path: "Session.m") == ["6 main"])
    }

    @Test func aCallbackRunsWhereItsCallerCallsItAndASynchronousClosureWhereItIsWritten() {
        #expect(
            threads(
                """
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func applicationDidEnterBackground(_ application: UIApplication) {
                        api.flush { app.endBackgroundTask(a) }
                        tasks.forEach { app.endBackgroundTask($0) }
                        let item = DispatchWorkItem { app.endBackgroundTask(b) }
                    }
                }
                """) == ["3 unknown", "4 main", "5 unknown"])
    }

    @Test func reactNativeRunsAModulesExportedMethodsOnItsMethodQueue() {
        func module(_ methodQueue: String) -> String {
            """
            @implementation Timer
            RCT_EXPORT_MODULE();
            \(methodQueue)
            RCT_EXPORT_METHOD(stop:(RCTPromiseResolveBlock)resolve rejecter:(RCTPromiseRejectBlock)reject)
            {
                [app endBackgroundTask:self.task];
            }
            @end
            """
        }
        #expect(threads(module(""), path: "Timer.m") == ["6 off"])
        let onMain = "- (dispatch_queue_t)methodQueue { return dispatch_get_main_queue(); }"
        #expect(threads(module(onMain), path: "Timer.m") == ["6 main"])
    }

    @Test func threadsOperationQueuesAndHealthKitHandlersRunOffTheMainThread() {
        #expect(
            threads(
                """
                final class Work {
                    func start() {
                        Thread { app.endBackgroundTask(task) }.start()
                        queue.addOperation { app.endBackgroundTask(task) }
                        OperationQueue.main.addOperation { app.endBackgroundTask(task) }
                        let query = HKObserverQuery(sampleType: type, predicate: nil) { _, _, _ in
                            app.endBackgroundTask(task)
                        }
                    }
                }
                """) == ["3 off", "4 off?", "5 main", "7 off"])
    }
}
