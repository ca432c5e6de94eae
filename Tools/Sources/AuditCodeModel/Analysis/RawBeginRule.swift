/// BT001 over the code model: a raw begin or expiring activity outside a wrapper. A call that passes on its caller's
/// handler — a closure parameter of the function or closure around it, as is or called from a closure — is a
/// wrapper's implementation and is not reported.
public struct RawBeginRule: Sendable {
    /// Creates the rule.
    public init() {}

    /// The findings in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            walk(body.steps, closureParameters: Set(body.parameters.filter(\.isClosure).map(\.name)))
        }
    }

    private func walk(_ steps: [Step], closureParameters: Set<String>) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for step in steps {
            for call in StepWalk.ownCalls(of: step) {
                let handler: CodeExpression?
                switch SystemCall(call) {
                case .begin(_, let given): handler = given
                case .expiringActivity(_, let block): handler = block
                default: continue
                }
                if let handler, Self.passesOn(handler, closureParameters) { continue }
                let text = "a raw background-task call outside a wrapper: every path must end it exactly once"
                found.append(
                    AnalysisFinding(
                        ruleID: "BT001", location: call.location, chain: [EvidenceLink(text, at: call.location)]))
            }
            for call in StepWalk.ownCalls(of: step) {
                for closure in call.closures {
                    let inner = closureParameters.union(closure.parameters.map(\.name))
                    found += walk(closure.steps, closureParameters: inner)
                }
            }
            let nested = StepWalk.nestedBlocks(of: step)
            for block in nested { found += walk(block, closureParameters: closureParameters) }
        }
        return found
    }

    /// Whether the handler is the caller's: a closure parameter itself, or a closure that only calls one.
    static func passesOn(_ handler: CodeExpression, _ parameters: Set<String>) -> Bool {
        if let path = handler.path, path.count == 1, parameters.contains(path[0]) { return true }
        guard case .closure(let closure) = handler, !closure.steps.isEmpty else { return false }
        return closure.calls.contains { call in
            call.receiver == nil && parameters.contains(call.name)
        }
    }
}
