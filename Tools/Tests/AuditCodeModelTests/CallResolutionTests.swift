import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// Which project declaration a call reaches, and whether the index shows it (the receiver's type is known) or
/// matched it by its name alone.
struct CallResolutionTests {
    /// For every call named `finish` in `files`: `Type.finish shown` or `Type.finish by name`, by file and line.
    private func resolutions(_ files: [String: String]) -> [String] {
        let read = ModelFixture.read(files)
        let index = ProjectIndex(files: read)
        return read.flatMap { file in
            file.bodies.filter { $0.kind != .closure }.flatMap { body in
                body.calls.filter { $0.name == "finish" }.map { call in
                    let resolution = index.resolve(call, in: body.typeName, locals: body.steps)
                    let targets = resolution.declarations.map { "\($0.typeName ?? "-").\($0.name ?? "?")" }
                    return "\(file.path):\(call.location.line) \(targets.joined(separator: ",")) "
                        + (resolution.isShown ? "shown" : "by name")
                }
            }
        }.sorted()
    }

    @Test func aReceiverOfKnownTypeIsShownAndAnyOtherIsMatchedByName() {
        #expect(
            resolutions([
                "Types.swift": """
                final class Uploader {
                    static let shared = Uploader()
                    func finish(_ id: Int) {}
                }
                final class Cache {
                    func finish(_ id: Int) {}
                }
                class Base {
                    func finish(_ id: Int) {}
                }
                """,
                "Client.swift": """
                final class Client: Base {
                    let uploader: Uploader? = nil
                    let made = Cache()
                    func run(other: AnyObject) {
                        finish(1)
                        uploader?.finish(2)
                        made.finish(3)
                        Uploader.shared.finish(4)
                        other.finish(5)
                        super.finish(6)
                    }
                }
                """,
            ]) == [
                "Client.swift:10 Base.finish shown",
                "Client.swift:5 Base.finish shown",
                "Client.swift:6 Uploader.finish shown",
                "Client.swift:7 Cache.finish shown",
                "Client.swift:8 Uploader.finish shown",
                "Client.swift:9 Uploader.finish,Cache.finish,Base.finish by name",
            ])
    }

    @Test func aProtocolsDefaultOrASuperclassMethodThatAnotherTypeReplacesIsNotShown() {
        #expect(
            resolutions([
                "Controller.swift": """
                protocol Controller {
                    func finish(_ id: Int)
                }
                extension Controller {
                    func finish(_ id: Int) {}
                }
                final class LiveController: Controller {
                    func finish(_ id: Int) {}
                }
                class Worker {
                    func finish(_ id: Int) {}
                }
                final class UploadWorker: Worker {
                    override func finish(_ id: Int) {}
                }
                final class Plain {
                    func finish(_ id: Int) {}
                }
                """,
                "Delegate.swift": """
                final class Delegate {
                    var controller: Controller?
                    var worker: Worker?
                    var plain: Plain?
                    func run() {
                        controller?.finish(1)
                        worker?.finish(2)
                        plain?.finish(3)
                    }
                }
                """,
            ]) == [
                "Delegate.swift:6 Controller.finish,LiveController.finish by name",
                "Delegate.swift:7 Worker.finish,UploadWorker.finish by name",
                "Delegate.swift:8 Plain.finish shown",
            ])
    }

    @Test func anObjectiveCPropertyOrSingletonGivesTheReceiversType() {
        #expect(
            resolutions(
                [
                    "Sync.m": """
                    @implementation Sync
                    - (void)finishWithCompletion:(dispatch_block_t)completion { completion(); }
                    @end
                    @implementation Other
                    - (void)finishWithCompletion:(dispatch_block_t)completion { }
                    @end
                    """,
                    "Owner.m": """
                    @interface Owner ()
                    @property (nonatomic, strong, nullable) Sync *sync;
                    @property (nonatomic, strong) NSArray<Other *> *others;
                    @end
                    @implementation Owner
                    - (void)run {
                        [self.sync finishWithCompletion:^{}];
                        [[Sync sharedInstance] finishWithCompletion:^{}];
                        [self.others finishWithCompletion:^{}];
                    }
                    @end
                    """,
                ].mapValues { $0.replacingOccurrences(of: "finishWithCompletion", with: "finish") })
                == [
                    "Owner.m:7 Sync.finish shown",
                    "Owner.m:8 Sync.finish shown",
                    "Owner.m:9 Sync.finish,Other.finish by name",
                ])
    }

    @Test func aFreeFunctionDeclaredOnceIsShownAndLabelsMustAgree() {
        #expect(
            resolutions([
                "Free.swift": """
                func finish(task id: Int) {}
                final class Holder {
                    func finish(_ id: Int, completion: () -> Void) {}
                    func run() {
                        finish(task: 1)
                        self.finish(2) { }
                    }
                }
                """
            ]) == [
                "Free.swift:5 -.finish shown",
                "Free.swift:6 Holder.finish shown",
            ])
    }

    @Test func twoAppsDeclaringTheSameTypeResolveToTheCallsOwnFile() {
        #expect(
            resolutions([
                "One/AppDelegate.m": """
                @implementation AppDelegate
                - (void)finish { }
                - (void)run { [self finish]; }
                @end
                """,
                "Two/AppDelegate.m": """
                @implementation AppDelegate
                - (void)finish { return; }
                @end
                """,
            ]) == ["One/AppDelegate.m:3 AppDelegate.finish shown"])
    }

    @Test func aLocalMadeByATypeOrAStaticPropertyGivesTheReceiversType() {
        #expect(
            resolutions([
                "Types.swift": """
                final class Sync {
                    func finish() {}
                }
                final class Calls {
                    func finish() {}
                }
                enum Cache {
                    static let calls: Calls = Calls()
                }
                """,
                "Client.swift": """
                final class Client {
                    func run(other: AnyObject) {
                        let sync = Sync()
                        sync.finish()
                        Cache.calls.finish()
                        let unknown = other
                        unknown.finish()
                    }
                }
                """,
                "Owner.m": """
                @implementation Owner
                - (void)run {
                    Sync *sync = [Sync sharedSync];
                    [sync finish];
                }
                @end
                """,
            ]) == [
                "Client.swift:4 Sync.finish shown",
                "Client.swift:5 Calls.finish shown",
                "Client.swift:7 Sync.finish,Calls.finish by name",
                "Owner.m:4 Sync.finish shown",
            ])
    }

    @Test func anObjectiveCGetterMethodGivesTheReceiversType() {
        #expect(
            resolutions([
                "Peer.m": """
                @implementation Peer
                - (Background *)background {
                    return self.chain.background;
                }
                - (void)connect {
                    [self.background finish];
                }
                @end
                @implementation Background
                - (void)finish { }
                @end
                @implementation Other
                - (void)finish { }
                @end
                """
            ]) == ["Peer.m:6 Background.finish shown"])
    }
}
