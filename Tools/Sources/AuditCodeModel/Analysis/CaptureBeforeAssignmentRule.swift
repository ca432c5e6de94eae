/// BT006 over the code model: the expiration handler reads the task's identifier before it holds the task. Proven
/// when the handler captures the variable's value before the begin returns (a Swift capture list, an Objective-C
/// block's copy of a local that is not `__block`), or when the begin runs off the main thread — inside a closure a
/// global queue or a detached task runs, or after an `await` in a `nonisolated` async function — and the identifier
/// is stored only after it returns, while the handler reads it on the main thread. (In an actor the handler's read
/// waits for the actor, so an actor's begin is not one.)
public struct CaptureBeforeAssignmentRule: Sendable {
    /// The project's declarations, to follow the handler into a method of the same type that reads the identifier
    /// (`[weakSelf cleanupBackgroundTask]`); `nil`: the handler's own text only.
    public let index: ProjectIndex?

    /// Creates the rule.
    public init(index: ProjectIndex? = nil) {
        self.index = index
    }

    /// The findings for every begin in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            walk(
                body.steps, offMain: nil, hopsAfterAwait: body.isAsync && body.isolation == .nonisolated,
                language: file.language, body: body)
        }
    }

    private func walk(
        _ steps: [Step], offMain: String?, hopsAfterAwait: Bool = false, language: CodeFile.Language,
        body: CodeBody
    ) -> [AnalysisFinding] {
        let typeName = body.typeName
        var found: [AnalysisFinding] = []
        var offMain = offMain
        for (position, step) in steps.enumerated() {
            if case .declare(let name, _, let value?) = step.kind, let (call, handler) = Self.begin(in: value),
                let store = laterStore(of: name, in: Array(steps[(position + 1)...])),
                callsOwnMethod(handler, typeName), let thread = offMainLink(call, in: body, offMain: offMain)
            {
                // `let id = begin { self.end(key) }`, then `tasks[key] = id.rawValue`: the handler looks the task up
                // where the identifier is stored only after the begin returns.
                let chain = [
                    thread,
                    EvidenceLink(
                        "keeps it in `\(name)` and stores it only at line \(store.line), after the begin returns, while "
                            + "the handler, through its own type's code, may already look for it there",
                        at: store, isEstablished: false),
                ]
                found.append(AnalysisFinding(ruleID: "BT006", location: call.location, chain: chain))
            }
            if case .declare(let name, let isShared, let value) = step.kind, language == .objectiveC {
                // A local that is not `__block`, declared and begun in one statement, is copied into the block
                // before it is assigned.
                if !isShared, let value, let (call, handler) = Self.begin(in: value), handler.reads(name) {
                    let chain = [
                        EvidenceLink("begins a task and declares `\(name)` with it", at: call.location),
                        EvidenceLink(
                            "the block copies `\(name)` when it is made, before the begin returns: it ends "
                                + "UIBackgroundTaskInvalid, never this task", at: handler.location),
                    ]
                    found.append(AnalysisFinding(ruleID: "BT006", location: call.location, chain: chain))
                    found += Self.endsCopy(name, call: call, handler: handler, chain: chain)
                } else if isShared, let value, let (call, handler) = Self.begin(in: value), handler.reads(name),
                    let thread = offMainLink(call, in: body, offMain: offMain)
                {
                    // A `__block` local the block shares holds the task only once the begin returns.
                    found.append(Self.readUnset(name, call: call, thread: thread, handler: handler))
                }
            }
            if case .assign(let target, let value) = step.kind, let name = target.path?.last,
                let (call, handler) = Self.begin(in: value)
            {
                // An Objective-C local that is not `__block` is copied into the block like a capture list's entry.
                let copiesLocal =
                    language == .objectiveC && target.path?.count == 1 && handler.reads(name)
                    && StepWalk.declaresCopiedLocal(name, in: body.steps)
                if copiesLocal || handler.captures.contains(where: { $0.name == name && $0.value == nil }) {
                    let copy =
                        copiesLocal
                        ? "the block copies the local `\(name)` (not `__block`) when it is made, before the begin returns"
                        : "the handler's capture list copies `\(name)` before the begin returns"
                    let chain = [
                        EvidenceLink("begins a task and stores it in `\(name)`", at: call.location),
                        EvidenceLink(copy, at: handler.location),
                    ]
                    found.append(AnalysisFinding(ruleID: "BT006", location: call.location, chain: chain))
                    found += Self.endsCopy(name, call: call, handler: handler, chain: chain)
                } else if handler.reads(name) || readsThroughOwnMethod(handler, name, typeName)
                    || Self.readsThroughLocal(handler, name, declaredIn: steps),
                    let thread = offMainLink(call, in: body, offMain: offMain)
                {
                    found.append(Self.readUnset(name, call: call, thread: thread, handler: handler))
                }
            }
            if let (call, handler) = Self.begin(in: step), let reset = Self.resetBeforeEnd(in: handler) {
                let ends =
                    reset.reset == reset.end
                    ? [
                        EvidenceLink(
                            "the handler ends the invalid identifier, not the task's: it returns with the task still "
                                + "running", at: reset.end)
                    ]
                    : [
                        EvidenceLink("the handler sets `\(reset.name)` to the invalid identifier", at: reset.reset),
                        EvidenceLink(
                            "then ends `\(reset.name)`: it ends UIBackgroundTaskInvalid and returns with the task "
                                + "still running", at: reset.end),
                    ]
                let chain = [EvidenceLink("begins a background task", at: call.location)] + ends
                found.append(AnalysisFinding(ruleID: "BT004", location: call.location, chain: chain))
            }
            if hopsAfterAwait, offMain == nil, Self.awaits(step) {
                offMain = "it runs after an `await` in a nonisolated async function, on the global executor"
            }
            for (closure, reason) in Self.closures(in: step) {
                found += walk(closure.steps, offMain: reason ?? offMain, language: language, body: body)
            }
            for block in StepWalk.nestedBlocks(of: step) {
                found += walk(block, offMain: offMain, language: language, body: body)
            }
        }
        return found
    }

    /// BT006 for a begin off the main thread (`thread`) whose identifier `name` holds only after it returns.
    private static func readUnset(
        _ name: String, call: CodeCall, thread: EvidenceLink, handler: CodeBody
    ) -> AnalysisFinding {
        let chain = [
            thread,
            EvidenceLink(
                "stores it in `\(name)` only after the begin returns, while the handler may already run on the main "
                    + "thread and read `\(name)` unset", at: handler.location),
        ]
        return AnalysisFinding(ruleID: "BT006", location: call.location, chain: chain)
    }

    /// BT004 beside a BT006 whose handler holds a copy made before the begin returned: when the handler's only ends
    /// are of that copy, it ends UIBackgroundTaskInvalid and returns with the task running.
    private static func endsCopy(
        _ name: String, call: CodeCall, handler: CodeBody, chain: [EvidenceLink]
    ) -> [AnalysisFinding] {
        let ends = handler.calls.filter { if case .end = SystemCall($0) { true } else { false } }
        guard let end = ends.first,
            ends.allSatisfy({ call in
                if case .end(let argument?) = SystemCall(call) { return argument.path?.last == name }
                return false
            })
        else { return [] }
        let link = EvidenceLink(
            "so this end ends UIBackgroundTaskInvalid, and the handler returns with the task still running",
            at: end.location)
        return [AnalysisFinding(ruleID: "BT004", location: call.location, chain: chain + [link])]
    }

    /// The begin a step makes with a closure handler, in a declaration's, an assignment's or an evaluated value.
    private static func begin(in step: Step) -> (CodeCall, CodeBody)? {
        switch step.kind {
        case .declare(_, _, let value?), .assign(_, let value), .evaluate(let value): begin(in: value)
        default: nil
        }
    }

    /// `task = .invalid` and then `end(task)`, or `end(.invalid)` itself, in the handler's own statements before any
    /// other end: the end ends the invalid value.
    private static func resetBeforeEnd(in handler: CodeBody) -> (name: String, reset: CodeRange, end: CodeRange)? {
        var resets: [String: CodeRange] = [:]
        for step in handler.steps {
            if let end = StepWalk.ownCalls(of: step).first(where: { call in
                guard case .end(let argument?) = SystemCall(call) else { return false }
                return EndAnalysis.isInvalidIdentifier(argument.path?.last)
            }) {
                return ("the invalid identifier", end.location, end.location)
            }
            if case .assign(let target, let value) = step.kind, let name = target.path?.last {
                if EndAnalysis.isInvalidIdentifier(value.path?.last) {
                    resets[name] = step.location
                } else {
                    resets[name] = nil
                }
            }
            for call in StepWalk.ownCalls(of: step) {
                guard case .end(let argument?) = SystemCall(call), let name = argument.path?.last else { continue }
                if let reset = resets[name] { return (name, reset, call.location) }
                return nil  // an end of the task comes first
            }
        }
        return nil
    }

    /// Whether `handler` calls a closure or function declared in `steps` (`let endTask = { … end(task) … }`, then
    /// `begin { endTask() }`) that reads `name`.
    private static func readsThroughLocal(_ handler: CodeBody, _ name: String, declaredIn steps: [Step]) -> Bool {
        handler.calls.contains { call in
            guard call.receiver == nil else { return false }
            if case .closure(let local)? = StepWalk.localValue(of: call.name, in: steps), local.reads(name) {
                return true
            }
            return StepWalk.localFunction(named: call.name, in: steps)?.reads(name) ?? false
        }
    }

    /// The link that says the begin runs off the main thread: shown by the closure it is in (`offMain`) or by
    /// ``ThreadResolver``; not established when the thread is not shown; `nil` when the begin runs on the main thread,
    /// where the handler cannot run before the identifier is stored.
    private func offMainLink(_ call: CodeCall, in body: CodeBody, offMain: String?) -> EvidenceLink? {
        if let offMain { return EvidenceLink("begins a task off the main thread: \(offMain)", at: call.location) }
        // In an actor the handler's read waits for the actor, so the identifier is stored before it can be read.
        guard let index, body.isolation == .unstated || body.isolation == .nonisolated else { return nil }
        if let type = body.typeName, index.types(named: type).contains(where: { $0.kind == .actor }) { return nil }
        switch ThreadResolver(index: index).runsOn(call, in: body) {
        case .main: return nil
        case .offMain(let reason, let isShown):
            return EvidenceLink(
                "begins a task off the main thread: \(reason)", at: call.location, isEstablished: isShown)
        case .unknown:
            return EvidenceLink(
                "begins a task on a thread the project does not show: if it is not the main thread, the handler can "
                    + "run before the identifier is stored", at: call.location, isEstablished: false)
        }
    }

    /// Where `steps` (their blocks and closures included) first store the local `name`, or its raw value, in a
    /// property, a collection or another object's code: `tasks[key] = id.rawValue`, `self.tasks.append(task)`.
    private func laterStore(of name: String, in steps: [Step]) -> CodeRange? {
        StepWalk.firstLocal(in: steps) { step -> CodeRange? in
            if case .assign(let target, let value) = step.kind, EarlyExitRule.carries(value, name) {
                return EarlyExitRule.keepsOutsideLocal(target) ? step.location : nil
            }
            // `self.tasks.append(task)`, `Entry(id: id, task: task)`: handed on, or wrapped to be.
            func carries(_ value: CodeExpression) -> Bool {
                EarlyExitRule.carries(value, name)
                    || value.calls.contains { $0.arguments.map(\.value).contains(where: carries) }
            }
            let passes = StepWalk.ownCalls(of: step).contains { call in
                SystemCall(call) == nil && call.arguments.map(\.value).contains(where: carries)
            }
            return passes ? step.location : nil
        }
    }

    /// Whether the handler calls a method of its own type (on `self`, a weak copy of it, or no receiver).
    private func callsOwnMethod(_ handler: CodeBody, _ typeName: String?) -> Bool {
        !ownMethods(calledBy: handler, typeName).isEmpty
    }

    /// Whether the handler calls a method of its own type (on `self`, a weak copy of it, or no receiver) that reads
    /// `name`.
    private func readsThroughOwnMethod(_ handler: CodeBody, _ name: String, _ typeName: String?) -> Bool {
        ownMethods(calledBy: handler, typeName).contains { $0.reads(name) }
    }

    /// The declarations of its own type's methods the handler calls on `self`, a weak copy of it or no receiver (those
    /// with the call's labels first).
    private func ownMethods(calledBy handler: CodeBody, _ typeName: String?) -> [CodeBody] {
        guard let index, let typeName else { return [] }
        return handler.calls.filter { ($0.receiver?.path ?? []).count <= 1 }.flatMap { call in
            index.methods(named: call.name, labels: call.arguments.map { $0.label ?? "_" }, in: typeName)
                + index.methods(named: call.name, in: typeName)
        }
    }

    /// Whether a step suspends (`await`) outside the closures it passes.
    private static func awaits(_ step: Step) -> Bool {
        func awaits(_ expression: CodeExpression) -> Bool {
            switch expression {
            case .await: true
            case .other(let parts): parts.contains(where: awaits)
            case .call(let call): call.arguments.contains { awaits($0.value) }
            default: false
            }
        }
        switch step.kind {
        case .evaluate(let expression), .declare(_, _, .some(let expression)), .assign(_, let expression):
            return awaits(expression)
        default:
            return false
        }
    }

    /// A begin in `expression` and its handler closure.
    private static func begin(in expression: CodeExpression) -> (CodeCall, CodeBody)? {
        for call in expression.calls {
            if case .begin(_, .closure(let handler)) = SystemCall(call) { return (call, handler) }
        }
        return nil
    }

    /// The closures a step passes to calls, with why each runs off the main thread when its call says so.
    private static func closures(in step: Step) -> [(CodeBody, String?)] {
        StepWalk.calls(in: [step]).flatMap { call -> [(CodeBody, String?)] in
            guard case .begin = SystemCall(call) else {
                let reason = offMainReason(call)
                return call.closures.map { ($0, reason) }
            }
            return []  // the handler runs on the main thread
        }
    }

    /// Why a closure passed to `call` runs off the main thread, when the call shows it (a global queue's `async`, a
    /// detached task): ``ThreadResolver``'s reading of the call.
    private static func offMainReason(_ call: CodeCall) -> String? {
        if case .offMain(let reason, isShown: true) = ThreadResolver.context(ofClosurePassedTo: call) { return reason }
        return nil
    }

}

extension CodeBody {
    /// Whether the body (its closures included) names `name`: in a call's receiver or arguments, a condition, a
    /// binding (`if let id = name`), a declaration's or an assignment's value.
    func reads(_ name: String) -> Bool {
        StepWalk.calls(in: steps).contains { call in
            call.arguments.contains { $0.value.mentions(name) } || call.receiver?.mentions(name) == true
        } || StepWalk.aliases(of: name, in: steps).count > 1 || Self.conditionsMention(name, steps)
    }

    private static func conditionsMention(_ name: String, _ steps: [Step]) -> Bool {
        steps.contains { step in
            if case .branch(let branch) = step.kind,
                branch.conditions.contains(where: { condition in
                    if case .expression(let expression) = condition { return expression.mentions(name) }
                    return false
                })
            {
                return true
            }
            return StepWalk.nestedBlocks(of: step).contains { conditionsMention(name, $0) }
                || StepWalk.ownCalls(of: step).flatMap(\.closures).contains { conditionsMention(name, $0.steps) }
        }
    }
}

extension CodeExpression {
    /// Whether the expression names `name` as a variable or as the last part of a member path.
    func mentions(_ name: String) -> Bool {
        switch self {
        case .reference(let path): path.last == name || path.first == name
        case .other(let parts): parts.contains { $0.mentions(name) }
        case .await(let inner): inner.mentions(name)
        case .call(let call): call.arguments.contains { $0.value.mentions(name) }
        case .closure, .literal: false
        }
    }
}
