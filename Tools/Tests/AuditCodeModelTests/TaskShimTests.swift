import AuditCodeModel
import Testing

/// A project helper object that begins a task, keeps its identifier and ends it when asked: its callers own the task,
/// so BT003, BT004 and BT008 are checked at each call, in Swift and in Objective-C. The pair is written for this
/// project, after the miss class "a shim whose handler is a local closure that calls the caller's" of issue 34.
struct TaskShimTests {
    /// A helper whose begin wraps the caller's optional handler in a local closure that does not end the task.
    private static let keepalive = """
        @objcMembers final class Keepalive: NSObject {
            private var identifier: UIBackgroundTaskIdentifier = .invalid
            private(set) var hasExpired = false

            class func hold(named name: String = #function, onExpiry: ((Keepalive) -> Void)? = nil) -> Keepalive {
                let keepalive = Keepalive()
                let whenExpired = {
                    keepalive.hasExpired = true
                    if let onExpiry { onExpiry(keepalive) }
                }
                keepalive.identifier = UIApplication.shared.beginBackgroundTask(
                    withName: name, expirationHandler: whenExpired)
                return keepalive
            }

            func finish() {
                if identifier != .invalid {
                    UIApplication.shared.endBackgroundTask(identifier)
                    identifier = .invalid
                }
            }
        }
        """

    private func findings(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        let rules = AnalysisRules(index: ProjectIndex(files: read))
        return ModelFixture.summary(read.flatMap(rules.findings(in:)))
    }

    @Test func aCallWithoutAHandlerIsAProvenBT003AtTheCallInEitherLanguage() {
        let found = findings([
            "Keepalive.swift": Self.keepalive,
            "Outbox.swift": """
            final class Outbox {
                func flushQuietly() {
                    let keepalive = Keepalive.hold(named: "flush")
                    write()
                    keepalive.finish()
                }
                func flushWithNil() {
                    let keepalive = Keepalive.hold(named: "flush", onExpiry: nil)
                    write()
                    keepalive.finish()
                }
                func write() {}
            }
            """,
            "Saver.m": """
            @implementation Saver
            - (void)save {
                Keepalive *keepalive = [Keepalive holdWithNamed:@"save" onExpiry:nil];
                [self write];
                [keepalive finish];
            }
            @end
            """,
        ])
        #expect(
            found.sorted() == ["BT003 proven Outbox.swift:3", "BT003 proven Outbox.swift:8", "BT003 proven Saver.m:3"])
    }

    @Test func aHandlerThatOnlyLogsIsAProvenBT004AndOneThatFinishesIsClean() {
        let found = findings([
            "Keepalive.swift": Self.keepalive,
            "Outbox.swift": """
            final class Outbox {
                func flushLogging() {
                    let keepalive = Keepalive.hold(named: "flush") { _ in print("expired") }
                    write()
                    keepalive.finish()
                }
                func flushEnding() {
                    let keepalive = Keepalive.hold(named: "flush") { held in held.finish() }
                    write()
                    keepalive.finish()
                }
                func write() {}
            }
            """,
        ])
        #expect(found == ["BT004 proven Outbox.swift:3"])
    }

    @Test func anEarlyReturnOrACallbackThatNeverComesLeavesTheHeldTaskRunning() {
        let found = findings([
            "Keepalive.swift": Self.keepalive,
            "Uploader.swift": """
            final class Uploader {
                let api = API()
                func upload(_ data: Data?) {
                    let keepalive = Keepalive.hold(named: "upload") { held in held.finish() }
                    guard let data else { return }
                    store(data)
                    keepalive.finish()
                }
                func send(_ body: String) {
                    let keepalive = Keepalive.hold(named: "send") { held in held.finish() }
                    api.post(body) { _ in
                        keepalive.finish()
                    }
                }
                func sendChecked(_ body: String) {
                    let keepalive = Keepalive.hold(named: "send") { held in held.finish() }
                    api.postAlwaysAnswering(body) { _ in
                        keepalive.finish()
                    }
                }
                func sendOnMain(_ body: String) {
                    let keepalive = Keepalive.hold(named: "send") { held in held.finish() }
                    DispatchQueue.main.async {
                        if body.isEmpty {
                            keepalive.finish()
                            return
                        }
                        self.store(Data())
                        keepalive.finish()
                    }
                }
                func store(_ data: Data) {}
            }
            final class API {
                func post(_ body: String, completion: @escaping (Bool) -> Void) {
                    guard !body.isEmpty else { return }
                    completion(true)
                }
                func postAlwaysAnswering(_ body: String, completion: @escaping (Bool) -> Void) {
                    guard !body.isEmpty else { return completion(false) }
                    completion(true)
                }
            }
            """,
        ])
        #expect(found == ["BT008 proven Uploader.swift:5", "BT008 proven Uploader.swift:10"])
    }

    @Test func aMethodThatBeginsAndReturnsAFlagIsNoShimButOneThatReturnsTheIdentifierIs() {
        let shims = TaskShims(
            bodies: ModelFixture.read([
                "Sync.swift": """
                final class Sync {
                    var task = UIBackgroundTaskIdentifier.invalid
                    func start() -> Bool {
                        task = UIApplication.shared.beginBackgroundTask(withName: "Sync") { self.stop() }
                        return true
                    }
                    func begin() -> UIBackgroundTaskIdentifier {
                        return UIApplication.shared.beginBackgroundTask(withName: "Other") {}
                    }
                    func stop() {
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                }
                """
            ]).flatMap(\.bodies))
        #expect(shims.beginNames == ["begin"])
        #expect(shims.endNames == ["stop"])
    }
}
