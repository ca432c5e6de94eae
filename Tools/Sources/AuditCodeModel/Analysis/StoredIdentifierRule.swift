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
            walk(body.steps, body: body, guards: [:], inLoop: false, endedBefore: [])
        }
    }

    private func walk(
        _ steps: [Step], body: CodeBody, guards: [String: CodeRange], inLoop: Bool, endedBefore: Set<String>
    ) -> [AnalysisFinding] {
        let typeName = body.typeName
        var found: [AnalysisFinding] = []
        var guards = guards
        var ended = endedBefore
        for step in steps {
            switch step.kind {
            case .assign(let target, let value):
                guard let path = target.path, let name = path.last, isProperty(path, typeName: typeName),
                    let begin = value.calls.first(where: { if case .begin = SystemCall($0) { true } else { false } })
                else { break }
                if ended.contains(name) { break }
                if let check = guards[name] {
                    if let race = checkRace(name: name, begin: begin, check: check, body: body) {
                        found.append(race)
                        if let overwrite = race.chain.last,
                            let late = lateEnd(of: name, begin: begin, body: body, overwrite: overwrite)
                        {
                            found.append(late)
                        }
                    }
                    break
                }
                let stored = EvidenceLink("keeps the task's identifier in the property `\(name)`", at: begin.location)
                let second =
                    inLoop
                    ? EvidenceLink("the begin runs in a loop: the next pass overwrites `\(name)`", at: step.location)
                    : EvidenceLink(
                        "a second begin while the first task is live overwrites `\(name)`, and the first is never ended "
                            + "(nothing here checks it or ends it first)", at: step.location, isEstablished: false)
                found.append(AnalysisFinding(ruleID: "BT005", location: begin.location, chain: [stored, second]))
                if let late = lateEnd(of: name, begin: begin, body: body, overwrite: second) { found.append(late) }
            case .branch(let branch):
                var mentioned = guards
                for name in branch.conditions.flatMap(Self.names) { mentioned[name] = step.location }
                if branch.form == .guard {
                    guards = mentioned
                } else {
                    for arm in branch.arms {
                        found += walk(arm, body: body, guards: mentioned, inLoop: inLoop, endedBefore: ended)
                    }
                }
            case .loop(_, let inner):
                found += walk(inner, body: body, guards: guards, inLoop: true, endedBefore: ended)
            case .guarded(let inner, _), .deferred(let inner):
                found += walk(inner, body: body, guards: guards, inLoop: inLoop, endedBefore: ended)
            default:
                break
            }
            for call in StepWalk.calls(in: [step]) {
                if case .end(let argument) = SystemCall(call), let name = argument?.path?.last { ended.insert(name) }
            }
        }
        return found
    }

    /// BT007 beside an overwrite: the first task's end (its handler's, its work's) reads the property, so once a second
    /// begin has overwritten it, that end ends the newer task. As likely as the overwrite, so never more than it.
    private func lateEnd(of name: String, begin: CodeCall, body: CodeBody, overwrite: EvidenceLink) -> AnalysisFinding?
    {
        let bodies = body.typeName.map { index.bodies(inType: $0) } ?? [body]
        guard
            let end = bodies.lazy.flatMap(\.calls).first(where: { call in
                if case .end(let argument) = SystemCall(call) { return argument?.path?.last == name }
                return false
            })
        else { return nil }
        let chain = [
            overwrite,
            EvidenceLink(
                "the first task's end reads `\(name)` (line \(end.location.line)): after the overwrite it ends the newer "
                    + "task, and the first is never ended", at: end.location, isEstablished: false),
        ]
        return AnalysisFinding(ruleID: "BT007", location: begin.location, chain: chain)
    }

    /// A check of the identifier before the begin that does not rule the overwrite out when two threads run the
    /// method at once: the begin is not shown to run on the main thread and nothing locks.
    private func checkRace(name: String, begin: CodeCall, check: CodeRange, body: CodeBody) -> AnalysisFinding? {
        guard !body.calls.contains(where: { DoubleEndRule.lockNames.contains($0.name) }) else { return nil }
        let thread: String
        switch ThreadResolver(index: index).runsOn(begin, in: body) {
        case .main: return nil
        case .offMain(let reason, _): thread = "it runs off the main thread (\(reason))"
        case .unknown: thread = "the project does not show it runs on the main thread"
        }
        let chain = [
            EvidenceLink("checks `\(name)` before it begins", at: check),
            EvidenceLink(
                "keeps the task's identifier in the property `\(name)`; \(thread), and nothing locks the check and the "
                    + "begin together: two threads that pass the check at once both begin, and the second overwrites "
                    + "the first", at: begin.location, isEstablished: false),
        ]
        return AnalysisFinding(ruleID: "BT005", location: begin.location, chain: chain)
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
