/// BT013 over the code model: a `BGTaskScheduler` launch handler registered after the app finished launching — in a
/// view controller's or scene's life-cycle method, or in a function only such methods call. iOS requires every
/// registration before launching ends.
public struct LateRegistrationRule: Sendable {
    /// Methods that run after launching has finished.
    static let lateHooks: Set<String> = [
        "viewDidLoad", "viewWillAppear", "viewDidAppear", "scene", "sceneDidBecomeActive", "sceneWillEnterForeground",
        "applicationDidBecomeActive", "applicationWillEnterForeground", "onAppear", "body",
    ]
    /// Methods that run while the app launches.
    static let launchHooks: Set<String> = [
        "application", "init", "main", "applicationDidFinishLaunching", "didFinishLaunching",
    ]

    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rule over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every registration in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            body.calls.compactMap { call -> AnalysisFinding? in
                guard case .register = SystemCall(call), !Self.submitsContinuedProcessing(body),
                    let late = lateCaller(of: body, depth: 3)
                else { return nil }
                let chain = [
                    EvidenceLink("registers a launch handler", at: call.location),
                    late,
                ]
                return AnalysisFinding(ruleID: "BT013", location: call.location, chain: chain)
            }
        }
    }

    /// Whether `body` submits a continued-processing request: such a task is registered when the user starts it (iOS
    /// 26), not at launch.
    private static func submitsContinuedProcessing(_ body: CodeBody) -> Bool {
        body.calls.contains { $0.name == "BGContinuedProcessingTaskRequest" }
    }

    /// The late life-cycle method `body` is, or that is the only kind of caller of it, or `nil`.
    private func lateCaller(of body: CodeBody, depth: Int) -> EvidenceLink? {
        guard let name = body.name, !Self.launchHooks.contains(name) else { return nil }
        if Self.lateHooks.contains(name) {
            return EvidenceLink("in `\(name)`, which runs after the app finished launching", at: body.location)
        }
        let callers = index.callers(of: name).filter { $0.name != name }
        guard depth > 0, !callers.isEmpty else { return nil }
        // Every caller must be late: the first that is not settles it.
        var first: EvidenceLink?
        for caller in callers {
            guard let late = lateCaller(of: caller, depth: depth - 1) else { return nil }
            first = first ?? late
        }
        guard let first else { return nil }
        return EvidenceLink(
            "`\(name)` is called only after launching: \(first.text) (\(first.location.path):\(first.location.line))",
            at: body.location)
    }
}
