/// BT005 and BT007 for a task kept in a collection under a key (`tasks[key] = begin…`) and ended by looking it up
/// under that key (`if let id = tasks[key] { end(id) }`). A second begin under the same key before the first task ends
/// overwrites the slot: the first task is never ended (BT005), and the first one's end, by key, ends the second
/// (BT007). Whether one key can have two live tasks depends on the callers, so both findings are `suspected`; BT005 is
/// not reported when the begin is preceded by a check of the collection (`guard tasks[key] == nil`).
public struct KeyedTaskRule: Sendable {
    /// The project's declarations, for the type's other methods; `nil`: one file.
    public let index: ProjectIndex?

    /// Creates the rule.
    public init(index: ProjectIndex? = nil) {
        self.index = index
    }

    /// The findings for every begin in `file` kept in a collection under a key.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.filter { $0.kind != .closure }.flatMap { body -> [AnalysisFinding] in
            Self.keyedBegins(in: body.steps, checked: []).flatMap { keyed -> [AnalysisFinding] in
                let scope =
                    index.flatMap { index in body.typeName.map { index.bodies(inType: $0) } }
                    ?? file.bodies.filter { $0.typeName == body.typeName }
                guard let end = Self.firstEnd(of: keyed.collection, in: scope) else { return [] }
                let kept = EvidenceLink(
                    "begins a task kept in `\(keyed.collection)[…]`, under a key", at: keyed.begin.location)
                let overwrite = "a second begin under the same key before this task ends overwrites the slot"
                let unshown = "that one key never has two live tasks is not shown"
                var findings = [
                    AnalysisFinding(
                        ruleID: "BT007", location: keyed.begin.location,
                        chain: [
                            kept,
                            EvidenceLink(
                                "ends the task it finds under the key in `\(keyed.collection)`", at: end.location),
                            EvidenceLink(
                                "\(overwrite), and the first task's end, by key, ends the second (\(unshown))",
                                at: keyed.step.location, isEstablished: false),
                        ])
                ]
                if !keyed.isChecked {
                    let lost = EvidenceLink(
                        "\(overwrite), and the first task is never ended (\(unshown); nothing checks the slot first)",
                        at: keyed.step.location, isEstablished: false)
                    findings.append(
                        AnalysisFinding(ruleID: "BT005", location: keyed.begin.location, chain: [kept, lost]))
                }
                return findings
            }
        }
    }

    /// A begin whose identifier is stored in a collection's slot.
    private struct KeyedBegin {
        /// The collection's name (the last part of its path).
        var collection: String
        /// The begin.
        var begin: CodeCall
        /// The assignment to the slot.
        var step: Step
        /// Whether a condition before it, on the way to it, reads the collection.
        var isChecked: Bool
    }

    /// The begins in `steps` stored in a slot, directly (`tasks[key] = begin…`) or through a local
    /// (`let id = begin…; tasks[key] = id`); `checked` holds the collections read by the conditions on the way.
    private static func keyedBegins(in steps: [Step], checked: Set<String>) -> [KeyedBegin] {
        var found: [KeyedBegin] = []
        var checked = checked
        var locals: [String: CodeCall] = [:]
        for step in steps {
            switch step.kind {
            case .declare(let name, _, .some(let value)):
                if let begin = value.calls.first(where: isBegin) { locals[name] = begin }
            case .assign(let target, let value):
                guard let collection = slotCollection(target) else { break }
                let begin =
                    value.calls.first(where: isBegin) ?? value.path.flatMap { $0.count == 1 ? locals[$0[0]] : nil }
                if let begin {
                    found.append(
                        KeyedBegin(
                            collection: collection, begin: begin, step: step, isChecked: checked.contains(collection)))
                }
            case .branch(let branch):
                for condition in branch.conditions {
                    switch condition {
                    case .expression(let expression): checked.formUnion(expression.names)
                    case .binding(_, let value): checked.formUnion(value?.names ?? [])
                    }
                }
            default:
                break
            }
            for block in StepWalk.nestedBlocks(of: step) { found += keyedBegins(in: block, checked: checked) }
            for call in StepWalk.ownCalls(of: step) where !isBegin(call) {
                for closure in call.closures { found += keyedBegins(in: closure.steps, checked: checked) }
            }
        }
        return found
    }

    private static func isBegin(_ call: CodeCall) -> Bool {
        if case .begin = SystemCall(call) { return true }
        return false
    }

    /// `tasks[key]`, `self.tasks[key]`: the collection's name.
    private static func slotCollection(_ expression: CodeExpression) -> String? {
        guard case .other(let parts) = expression, parts.count >= 2, let base = parts.first?.path?.last,
            base != "self"
        else { return nil }
        return base
    }

    /// Whether `expression` reads a slot of `collection`: `tasks[key]`, `tasks.removeValue(forKey: key)`,
    /// `[tasks objectForKey:key]`.
    private static func readsSlot(_ expression: CodeExpression, of collection: String) -> Bool {
        switch expression {
        case .other(let parts):
            if parts.count >= 2, parts.first?.path?.last == collection { return true }
            return parts.contains { readsSlot($0, of: collection) }
        case .call(let call):
            return call.receiver?.path?.last == collection && slotReaders.contains(call.name)
        case .await(let inner):
            return readsSlot(inner, of: collection)
        default:
            return false
        }
    }

    static let slotReaders: Set<String> = ["removeValue", "objectForKey", "object", "removeObjectForKey"]

    /// The first end, in `scope`, of a task read from a slot of `collection`: directly, or through a local bound to it.
    private static func firstEnd(of collection: String, in scope: [CodeBody]) -> CodeCall? {
        for body in scope {
            var names: Set<String> = []
            func bind(_ steps: [Step]) {
                for step in steps {
                    switch step.kind {
                    case .declare(let name, _, .some(let value)) where readsSlot(value, of: collection):
                        names.insert(name)
                    case .branch(let branch):
                        for case .binding(let name, .some(let value)) in branch.conditions
                        where readsSlot(value, of: collection) {
                            names.insert(name)
                        }
                    default:
                        break
                    }
                    for block in StepWalk.nestedBlocks(of: step) { bind(block) }
                    for closure in StepWalk.ownCalls(of: step).flatMap(\.closures) { bind(closure.steps) }
                }
            }
            bind(body.steps)
            let end = body.calls.first { call in
                guard case .end(let argument?) = SystemCall(call) else { return false }
                if readsSlot(argument, of: collection) { return true }
                return argument.path.map { $0.count == 1 && names.contains($0[0]) } ?? false
            }
            if let end { return end }
        }
        return nil
    }
}
