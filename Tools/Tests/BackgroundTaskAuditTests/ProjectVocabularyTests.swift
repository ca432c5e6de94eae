import BackgroundTaskAudit
import Testing

/// Shims and look-alikes declared in one file change how calls in another file read.
struct ProjectVocabularyTests {
    private func audit(_ files: [String: String]) async throws -> [Finding] {
        let folder = try TemporaryFolder()
        for (path, text) in files { try folder.write(path, text) }
        return try await Auditor.tokenRules().audit(paths: [folder.path]).findings
    }

    private func rules(_ findings: [Finding], in file: String) -> [String] {
        findings.filter { $0.path.hasSuffix(file) }.map { "\($0.location.line) \($0.ruleID)" }.sorted()
    }

    @Test(
        "A Swift shim declared in one file: its callers elsewhere are checked like begins, the shim is not a raw call")
    func swiftShimCallsAreBegins() async throws {
        let shim = """
            extension UIApplication {
                func beginBgTask(_ handler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
                    beginBackgroundTask(withName: "Upload") { handler?() }
                }
                func endBgTask(_ identifier: UIBackgroundTaskIdentifier) {
                    endBackgroundTask(identifier)
                }
            }
            """
        let caller = """
            final class Uploader {
                func upload(app: UIApplication) {
                    let task = app.beginBgTask {
                        Network.cancel()
                    }
                    Network.send { app.endBgTask(task) }
                }
            }
            """
        let findings = try await audit(["Shim.swift": shim, "Uploader.swift": caller])
        #expect(rules(findings, in: "Shim.swift") == [])
        #expect(rules(findings, in: "Uploader.swift") == ["3 BT004"])
    }

    @Test("A code base's own zero-argument beginBackgroundTask() is not UIKit's, and its raw begin is one")
    func ownZeroArgumentBeginIsNotUIKit() async throws {
        let coordinator = """
            final class Coordinator {
                private var task: UIBackgroundTaskIdentifier?
                func beginBackgroundTask() {
                    endBackgroundTask()
                    task = UIApplication.shared.beginBackgroundTask(withName: "Coordinator") { [self] in
                        endBackgroundTask()
                    }
                }
                func endBackgroundTask() {
                    guard let task else { return }
                    UIApplication.shared.endBackgroundTask(task)
                    self.task = nil
                }
            }
            """
        let worker = """
            final class Worker {
                let coordinator = Coordinator()
                func upload() {
                    coordinator.beginBackgroundTask()
                    send { self.coordinator.endBackgroundTask() }
                }
            }
            """
        let findings = try await audit(["Coordinator.swift": coordinator, "Worker.swift": worker])
        #expect(rules(findings, in: "Worker.swift") == [])
        // Named like the API, but it takes no handler and makes its own: an app's task, so a raw call (issue 23).
        #expect(rules(findings, in: "Coordinator.swift") == ["5 BT001"])
    }

    @Test("An Objective-C category shim: its callers' handlers and stored identifiers are checked")
    func objectiveCShimCallsAreBegins() async throws {
        let category = """
            @implementation UIApplication (Shim)
            - (UIBackgroundTaskIdentifier)xyz_beginBackgroundTaskWithName:(NSString *)name expirationHandler:(void (^)(void))handler {
                return [self beginBackgroundTaskWithName:name expirationHandler:handler];
            }
            - (void)xyz_endBackgroundTask:(UIBackgroundTaskIdentifier)identifier {
                [self endBackgroundTask:identifier];
            }
            @end
            """
        let client = """
            @implementation Flusher
            - (void)flush {
                self.flushTask = [self.application xyz_beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
                    [self.queue cancelAllOperations];
                }];
            }
            - (void)didFlush {
                [self.application xyz_endBackgroundTask:self.flushTask];
            }
            @end
            """
        let findings = try await audit(["UIApplication+Shim.m": category, "Flusher.m": client])
        #expect(rules(findings, in: "UIApplication+Shim.m") == [])
        #expect(rules(findings, in: "Flusher.m") == ["3 BT004", "3 BT005"])
    }

    @Test("A forwarding function with a generic name is not taken for a shim")
    func genericNamesAreNotShims() async throws {
        let wrapper = """
            func start(_ handler: @escaping () -> Void) -> UIBackgroundTaskIdentifier {
                UIApplication.shared.beginBackgroundTask(withName: "Start", expirationHandler: handler)
            }
            """
        let caller = """
            func run() {
                engine.start { print("started") }
            }
            """
        let findings = try await audit(["Wrapper.swift": wrapper, "Caller.swift": caller])
        #expect(rules(findings, in: "Caller.swift") == [])
    }

    @Test("A function called from a queue in another file begins off the main thread (BT006, BT007)")
    func queueCallersInOtherFilesAreSeen() async throws {
        let tracker = """
            @implementation Tracker
            - (void)startUploadTask {
                if (self.uploadTask != UIBackgroundTaskInvalid) return;
                self.uploadTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                    [self finishUploadTask];
                }];
            }
            - (void)finishUploadTask {
                if (self.uploadTask != UIBackgroundTaskInvalid) {
                    [[UIApplication sharedApplication] endBackgroundTask:self.uploadTask];
                    self.uploadTask = UIBackgroundTaskInvalid;
                }
            }
            @end
            """
        let connection = """
            @implementation Connection
            - (void)send {
                dispatch_async(self.queue, ^{
                    [Tracker.shared startUploadTask];
                    [self.transport sendAll];
                    [Tracker.shared finishUploadTask];
                });
            }
            @end
            """
        let findings = try await audit(["Tracker.m": tracker, "Connection.m": connection])
        // The "already started" check is not locked, and the begin runs on a queue: no guard (BT005).
        #expect(rules(findings, in: "Tracker.m") == ["10 BT007", "4 BT001", "4 BT005", "4 BT006"])
        let offMain = try #require(findings.first { $0.ruleID == "BT006" })
        #expect(offMain.message.contains("`startUploadTask` is called on a queue"))
    }

    @Test("An operation declared in a header: its start in the .m runs off the main thread")
    func operationDeclaredInAHeader() async throws {
        let header = """
            @interface ImageDownload : NSOperation
            @property (nonatomic) UIBackgroundTaskIdentifier downloadTask;
            @end
            """
        let implementation = """
            @implementation ImageDownload
            - (void)start {
                self.downloadTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Download" expirationHandler:^{
                    [[UIApplication sharedApplication] endBackgroundTask:self.downloadTask];
                    self.downloadTask = UIBackgroundTaskInvalid;
                }];
                [self download];
            }
            - (void)done {
                [[UIApplication sharedApplication] endBackgroundTask:self.downloadTask];
                self.downloadTask = UIBackgroundTaskInvalid;
            }
            @end
            """
        let findings = try await audit(["ImageDownload.h": header, "ImageDownload.m": implementation])
        #expect(rules(findings, in: "ImageDownload.m").contains("3 BT006"))
        // Alone, the .m does not say it is an operation.
        let alone = try await audit(["ImageDownload.m": implementation])
        #expect(!rules(alone, in: "ImageDownload.m").contains("3 BT006"))
    }
}
