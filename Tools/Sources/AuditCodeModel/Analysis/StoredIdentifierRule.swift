/// BT005 over the code model: a begin's identifier kept in a property (or an instance variable) where a second begin,
/// before the first task ends, overwrites it. Whether a second begin can come while the first is live depends on the
/// app's life cycle, so the finding is `suspected` unless the code shows it: the begin runs in a loop.
public struct StoredIdentifierRule: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rule over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every begin in `file` that is stored in a property.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            walk(body.steps, typeName: body.typeName, guards: [], inLoop: false, endedBefore: [])
        }
    }

    private func walk(
        _ steps: [Step], typeName: String?, guards: Set<String>, inLoop: Bool, endedBefore: Set<String>
    ) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        var guards = guards
        var ended = endedBefore
        for step in steps {
            switch step.kind {
            case .assign(let target, let value):
                guard let path = target.path, let name = path.last, isProperty(path, typeName: typeName),
                    let begin = value.calls.first(where: { if case .begin = SystemCall($0) { true } else { false } })
                else { break }
                if guards.contains(name) || ended.contains(name) { break }
                let stored = EvidenceLink("keeps the task's identifier in the property `\(name)`", at: begin.location)
                let second =
                    inLoop
                    ? EvidenceLink("the begin runs in a loop: the next pass overwrites `\(name)`", at: step.location)
                    : EvidenceLink(
                        "a second begin while the first task is live overwrites `\(name)`, and the first is never ended "
                            + "(nothing here checks it or ends it first)", at: step.location, isEstablished: false)
                found.append(AnalysisFinding(ruleID: "BT005", location: begin.location, chain: [stored, second]))
            case .branch(let branch):
                let mentioned = branch.conditions.flatMap(Self.names)
                if branch.form == .guard {
                    guards.formUnion(mentioned)
                } else {
                    for arm in branch.arms {
                        found += walk(
                            arm, typeName: typeName, guards: guards.union(mentioned), inLoop: inLoop, endedBefore: ended
                        )
                    }
                }
            case .loop(_, let body):
                found += walk(body, typeName: typeName, guards: guards, inLoop: true, endedBefore: ended)
            case .guarded(let body, _), .deferred(let body):
                found += walk(body, typeName: typeName, guards: guards, inLoop: inLoop, endedBefore: ended)
            default:
                break
            }
            for call in StepWalk.calls(in: [step]) {
                if case .end(let argument) = SystemCall(call), let name = argument?.path?.last { ended.insert(name) }
            }
        }
        return found
    }

    /// Whether `path` names a property: `self.task`, or a bare name the type declares as a property.
    private func isProperty(_ path: [String], typeName: String?) -> Bool {
        if path.count >= 2, path[0] == "self" { return true }
        guard let name = path.last, path.count == 1 else { return false }
        return !index.properties(named: name, in: typeName).isEmpty
    }

    /// The names a condition mentions (`task == .invalid`, `isRunning`, `let existing = task`).
    private static func names(_ condition: Step.Condition) -> [String] {
        func names(_ expression: CodeExpression) -> [String] {
            switch expression {
            case .reference(let path): return path.last.map { [$0] } ?? []
            case .other(let parts): return parts.flatMap(names)
            case .call(let call): return (call.receiver.map(names) ?? []) + call.arguments.flatMap { names($0.value) }
            case .await(let inner): return names(inner)
            case .closure, .literal: return []
            }
        }
        switch condition {
        case .expression(let expression): return names(expression)
        case .binding(let name, let value): return [name] + (value.map(names) ?? [])
        }
    }
}
