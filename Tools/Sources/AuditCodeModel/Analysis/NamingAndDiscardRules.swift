/// BT002 and BT010 over the code model: a raw task begun without a name (or an expiring activity without a reason),
/// and a BackgroundTaskKit task thrown away as soon as it is begun.
public struct NamingAndDiscardRules: Sendable {
    /// Creates the rules.
    public init() {}

    /// The findings in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in unnamed(body) + discarded(body.steps) }
    }

    private func unnamed(_ body: CodeBody) -> [AnalysisFinding] {
        body.calls.compactMap { call -> AnalysisFinding? in
            let name: CodeExpression?
            switch SystemCall(call) {
            case .begin(let given, _): name = given
            case .expiringActivity(let reason, _): name = reason ?? .literal(.string(isEmpty: true))
            default: return nil
            }
            switch name {
            case nil, .literal(.nil), .literal(.string(isEmpty: true)):
                let text = "has no name: the console and the termination report cannot say which task it was"
                return AnalysisFinding(
                    ruleID: "BT002", location: call.location, chain: [EvidenceLink(text, at: call.location)])
            default:
                return nil
            }
        }
    }

    /// `_ = ScopedBackgroundTask(…)` and `SafeBackgroundTask.begin(…)` whose result is not kept.
    private func discarded(_ steps: [Step]) -> [AnalysisFinding] {
        steps.flatMap { step -> [AnalysisFinding] in
            var found: [AnalysisFinding] = []
            let value: CodeExpression?
            switch step.kind {
            case .assign(let target, let assigned) where target.path == ["_"]: value = assigned
            case .evaluate(let evaluated): value = evaluated
            default: value = nil
            }
            if case .call(let call) = value, Self.isFaceBegin(call) {
                let text =
                    "the task is thrown away as soon as it is begun, so it ends at once and protects nothing: keep it "
                    + "until the work is done"
                found.append(
                    AnalysisFinding(
                        ruleID: "BT010", location: call.location, chain: [EvidenceLink(text, at: step.location)]))
            }
            for closure in StepWalk.calls(in: [step]).flatMap(\.closures) { found += discarded(closure.steps) }
            switch step.kind {
            case .branch(let branch): found += branch.arms.flatMap(discarded)
            case .loop(_, let body), .deferred(let body): found += discarded(body)
            case .guarded(let body, let handlers): found += discarded(body) + handlers.flatMap(discarded)
            default: break
            }
            return found
        }
    }

    private static func isFaceBegin(_ call: CodeCall) -> Bool {
        if call.name == "ScopedBackgroundTask", call.receiver == nil { return true }
        return call.name == "begin" && call.receiver?.path == ["SafeBackgroundTask"]
    }
}
