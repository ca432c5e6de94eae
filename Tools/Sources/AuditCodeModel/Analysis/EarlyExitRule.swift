/// BT008 over the code model: after a begin, a path of the same body leaves (`return`, `throw`, a `guard`'s else)
/// with the task neither ended nor handed on; or nothing but the task's own handler ever ends it.
public struct EarlyExitRule: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rule over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every begin in `file` whose identifier is kept in a variable or property.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in findings(in: body.steps, of: body) }
    }

    private func findings(in steps: [Step], of body: CodeBody) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for (position, step) in steps.enumerated() {
            if let (name, begin) = Self.begin(in: step, shims: index.shims) {
                let link = EvidenceLink.begin("a background task", keptIn: name, at: begin.location)
                var state = PathState()
                let rest = Array(steps[(position + 1)...])
                // A property keeps the task past a return: only a local is lost when the function leaves.
                let isLocal =
                    if case .local = Self.keeper(of: name, step: step, in: body, index: index) { true } else { false }
                if isLocal, let exit = firstUnendedExit(in: rest, name: name, state: &state) {
                    found.append(AnalysisFinding(ruleID: "BT008", location: exit.location, chain: [link, exit]))
                } else if !state.handled, let never = endedOnlyElsewhere(name, begin, step: step, rest: rest, in: body)
                {
                    found.append(AnalysisFinding(ruleID: "BT008", location: begin.location, chain: [link, never]))
                }
            }
            // Begins inside nested blocks of this step are checked in their own block.
            for inner in StepWalk.nestedBlocks(of: step) { found += findings(in: inner, of: body) }
        }
        return found
    }

    /// For a begin whose own work neither ends the task nor hands it on: that nothing but the handler ends it
    /// (established), or that it is ended only in other code, which paths of the work reach not shown (a completion
    /// method, a lifecycle callback); `nil` when the identifier goes back to the caller or the work hands it on.
    private func endedOnlyElsewhere(
        _ name: String, _ begin: CodeCall, step: Step, rest: [Step], in body: CodeBody
    ) -> EvidenceLink? {
        switch elsewhere(name, besides: begin, step: step, in: body) {
        case .nowhere:
            return EvidenceLink(
                name == "_"
                    ? "nothing but its expiration handler can end it: it is held until time runs out"
                    : "nothing but its expiration handler ever ends `\(name)`: it is held until time runs out",
                at: begin.location)
        case .ended(let end):
            let inOwnBody = end.path == body.location.path && body.location.contains(line: end.line)
            guard !inOwnBody, !handsKeeperToCaller(step, in: body), !rest.contains(where: { handles($0, name) }) else {
                return nil
            }
            return EvidenceLink(
                "the work after it neither ends `\(name)` nor hands it on; it is ended in other code "
                    + "(\(end.path == begin.location.path ? "" : "\(end.path):")\(end.line)), which the audit does not "
                    + "show every path of the work reaching", at: begin.location, isEstablished: false)
        case .handedToCaller:
            return nil
        }
    }

    /// What the walk after a begin knows.
    private struct PathState {
        /// The task was ended, an end was scheduled (a closure that ends it was passed on), or the identifier was
        /// handed to other code.
        var handled = false
    }

    /// The first exit, after the begin, reached with the task not handled.
    private func firstUnendedExit(in steps: [Step], name: String, state: inout PathState) -> EvidenceLink? {
        for step in steps {
            if state.handled { return nil }
            if handles(step, name) {
                state.handled = true
                return nil
            }
            switch step.kind {
            case .exit(.return, let value?) where Self.mentions(value, name):
                state.handled = true  // `return taskId`: handed to the caller
                return nil
            case .exit(.return, _), .exit(.throw, _):
                return EvidenceLink("leaves here with `\(name)` neither ended nor handed on", at: step.location)
            case .branch(let branch):
                // `if task == .invalid { return }`, `guard id != UIBackgroundTaskInvalid else { return }`: the exit
                // is the path on which the begin was refused, with no task to end.
                if Self.checksValidity(of: name, in: branch) { continue }
                for arm in branch.arms {
                    var inner = state
                    if let exit = firstUnendedExit(in: arm, name: name, state: &inner) { return exit }
                }
            case .guarded(let body, _):
                var inner = state
                if let exit = firstUnendedExit(in: body, name: name, state: &inner) { return exit }
                state.handled = inner.handled
            default:
                break
            }
        }
        return nil
    }

    /// Whether `step` ends `name` (at once or in a closure it passes on) or hands it to other code.
    private func handles(_ step: Step, _ name: String) -> Bool {
        // `helper.identifier = identifier`, `self.task = task`, `tasks[key] = identifier.rawValue`: an object or a
        // collection keeps it now.
        if case .assign(let target, let value) = step.kind, Self.carries(value, name), Self.keepsOutsideLocal(target) {
            return true
        }
        let calls = StepWalk.calls(in: [step])
        if calls.contains(where: { call in
            if case .end = SystemCall(call) { return index.shims.ends(call, kept: name) }
            return call.arguments.contains { Self.carries($0.value, name) }
                || index.shims.ends(call, handle: name)
        }) {
            return true
        }
        // A call of project code that ends a task of the same name.
        return calls.contains { call in
            index.bodies(named: call.name).contains { body in
                body.calls.contains { inner in
                    if case .end(let argument) = SystemCall(inner) {
                        return Self.sameIdentifier(argument?.path?.last, name)
                    }
                    return false
                }
            }
        }
    }

    /// Where code other than the begin's own handler ends `name` or hands it on.
    private enum Elsewhere {
        /// Nothing but the handler ends it.
        case nowhere
        /// The first end found outside the handler (or the call that hands the identifier on).
        case ended(CodeRange)
        /// `return taskID`: the caller gets the identifier.
        case handedToCaller
    }

    /// Whether code other than the begin's own handler ends `name` or hands it on: for a local, the begin's body (its
    /// closures included); for a property of the type, every body of the type, its extensions and its superclasses;
    /// for another object's property, any body of the project.
    private func elsewhere(_ name: String, besides begin: CodeCall, step: Step, in body: CodeBody) -> Elsewhere {
        let handlerRange = begin.closures.first?.location
        let candidates: [CodeBody]
        switch Self.keeper(of: name, step: step, in: body, index: index) {
        case .local:
            candidates = [body]
        case .ownProperty(let typeName):
            candidates = index.typeAndSuperclasses(of: typeName).flatMap { index.bodies(inType: $0) } + [body]
        case .otherObject:
            candidates = index.files.flatMap(\.bodies)
        }
        // In the begin's own body, any end outside the handler ends this task (`guard let id = self.task` then
        // `endBackgroundTask(id)` in the work's closure).
        let endInOwnBody = body.calls.first { call in
            guard case .end = SystemCall(call) else {
                guard index.shims.ends(call, handle: name) else { return false }
                return handlerRange.map { !$0.contains(line: call.location.line) } ?? true
            }
            guard let handlerRange, handlerRange.path == call.location.path else { return true }
            return !handlerRange.contains(line: call.location.line)
        }
        if let endInOwnBody { return .ended(endInOwnBody.location) }
        // `return taskID`: the caller gets the identifier, and ending it is the caller's part.
        if candidates.contains(where: { Self.returns(name, in: $0.steps) }) { return .handedToCaller }
        for candidate in candidates {
            // `UIBackgroundTaskIdentifier taskID = self.task; … endBackgroundTask:taskID`: a copy ended.
            let names = Self.copies(of: name, in: candidate.steps).union([name])
            let end = candidate.calls.first { call in
                guard case .end(let argument) = SystemCall(call),
                    names.contains(where: { Self.sameIdentifier(argument?.path?.last, $0) })
                else {
                    return call.arguments.contains { Self.sameIdentifier($0.value.path?.last, name) }
                        && SystemCall(call) == nil
                }
                guard let handlerRange, handlerRange.path == call.location.path else { return true }
                return !handlerRange.contains(line: call.location.line)
            }
            if let end { return .ended(end.location) }
        }
        return .nowhere
    }

    /// Whether the object that keeps the identifier goes back to the caller (`keepalive.identifier = begin(…)`, then
    /// `return keepalive`), or the body is one of the project's begin shims: ending it is then the caller's part.
    private func handsKeeperToCaller(_ step: Step, in body: CodeBody) -> Bool {
        if let name = body.name, index.shims.beginNames.contains(name) { return true }
        guard case .assign(let target, _) = step.kind, let root = target.path?.first, root != "self" else {
            return false
        }
        return Self.returns(root, in: body.steps)
    }

    /// Whether `steps` (blocks included, closures not) return `name`'s value.
    private static func returns(_ name: String, in steps: [Step]) -> Bool {
        steps.contains { step in
            if case .exit(_, let value?) = step.kind, sameIdentifier(value.path?.last, name) { return true }
            return StepWalk.nestedBlocks(of: step).contains { returns(name, in: $0) }
        }
    }

    /// What keeps a begin's identifier.
    private enum Keeper {
        case local
        case ownProperty(String)
        case otherObject
    }

    /// What the begin's step keeps the identifier in: a local, a property of the body's type (`self.task = …`, or a
    /// bare name the type declares), or another object's property (`manager.task = …`).
    private static func keeper(of name: String, step: Step, in body: CodeBody, index: ProjectIndex) -> Keeper {
        guard case .assign(let target, _) = step.kind, let path = target.path else { return .local }
        if path.count >= 2 {
            guard path[0] == "self", path.count == 2, let typeName = body.typeName else { return .otherObject }
            return .ownProperty(typeName)
        }
        if let typeName = body.typeName, !index.properties(named: name, in: typeName).isEmpty {
            return .ownProperty(typeName)
        }
        // A bare name the body declares is its local; any other (a global, a static) may be ended anywhere.
        return StepWalk.declares(name, in: body.steps) || body.parameters.contains { $0.name == name }
            ? .local : .otherObject
    }

    /// Whether a branch's conditions compare `name` with the invalid identifier (`task == .invalid`,
    /// `identifier != UIBackgroundTaskInvalid`).
    private static func checksValidity(of name: String, in branch: Step.Branch) -> Bool {
        EndAnalysis.checksValidity(branch)
            && branch.conditions.contains { condition in
                if case .expression(let expression) = condition { return mentions(expression, name) }
                return false
            }
    }

    /// The locals `steps` declare or bind as a copy of `name` (`let id = self.task`, `if let id = task`,
    /// `guard let id = self.task else { return }`).
    private static func copies(of name: String, in steps: [Step]) -> Set<String> {
        var found: Set<String> = []
        for step in steps {
            if case .declare(let declared, _, let value?) = step.kind, sameIdentifier(value.path?.last, name) {
                found.insert(declared)
            }
            if case .branch(let branch) = step.kind {
                for case .binding(let bound, let value) in branch.conditions
                where sameIdentifier(value?.path?.last ?? bound, name) {
                    found.insert(bound)
                }
            }
            for block in StepWalk.nestedBlocks(of: step) { found.formUnion(copies(of: name, in: block)) }
        }
        return found
    }

    /// Whether two names are the same identifier's: equal, or an Objective-C instance variable and its property
    /// (`_identifier` and `identifier`).
    /// Whether `value` is the identifier `name` or its raw value (`identifier.rawValue`), handed on as it is.
    static func carries(_ value: CodeExpression, _ name: String) -> Bool {
        guard let path = value.path, let last = path.last else { return false }
        if last == "rawValue", path.count >= 2 { return sameIdentifier(path[path.count - 2], name) }
        return sameIdentifier(last, name)
    }

    /// Whether an assignment to `target` keeps its value past a local: a member (`self.task`, `helper.id`) or a
    /// subscript (`tasks[key]`), not a bare name.
    static func keepsOutsideLocal(_ target: CodeExpression) -> Bool {
        target.path.map { $0.count >= 2 } ?? true
    }

    static func sameIdentifier(_ other: String?, _ name: String) -> Bool {
        guard let other else { return false }
        return other == name || other.drop { $0 == "_" } == name.drop { $0 == "_" }
    }

    /// Whether `expression` reads `name` (`taskId`, `self.taskId`, `task.identifier != UIBackgroundTaskInvalid`).
    private static func mentions(_ expression: CodeExpression, _ name: String) -> Bool {
        switch expression {
        case .reference(let path): return path.last == name
        case .other(let parts): return parts.contains { mentions($0, name) }
        case .await(let inner): return mentions(inner, name)
        case .call(let call):
            return (call.receiver.map { mentions($0, name) } ?? false)
                || call.arguments.contains { mentions($0.value, name) }
        case .closure, .literal: return false
        }
    }

    /// The name the step keeps a begin's identifier in (`task = app.begin…`, `let id = app.begin…`).
    private static func begin(in step: Step, shims: TaskShims) -> (String, CodeCall)? {
        let value: CodeExpression
        let name: String
        switch step.kind {
        case .assign(let target, let assigned):
            guard let last = target.path?.last else { return nil }
            (name, value) = (last, assigned)
        case .declare(let declared, _, .some(let assigned)):
            (name, value) = (declared, assigned)
        default:
            return nil
        }
        guard let call = value.calls.first(where: shims.begins) else { return nil }
        return (name, call)
    }

}
