/// BT011 and BT012 over the code model: a `BGTaskScheduler` launch handler with a path that never completes its task,
/// or that never sets the task's `expirationHandler`, followed through the project code the task is handed to.
public struct LaunchHandlerRules: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex
    /// How deep calls are followed.
    public var depth = 4

    /// Creates the rules over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every registration in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            body.calls.flatMap { call -> [AnalysisFinding] in
                guard case .register(_, let handler) = SystemCall(call) else { return [] }
                return findings(for: call, handler: handler, in: body)
            }
        }
    }

    private func findings(for call: CodeCall, handler: CodeExpression?, in body: CodeBody) -> [AnalysisFinding] {
        let register = EvidenceLink("registers a launch handler", at: call.location)
        guard case .closure(let closure) = handler, let task = closure.parameters.first?.name else {
            let link = EvidenceLink(
                "its launch handler is a value the index cannot follow", at: call.location, isEstablished: false)
            return [AnalysisFinding(ruleID: "BT012", location: call.location, chain: [register, link])]
        }
        var findings: [AnalysisFinding] = []
        let expiration = search(closure.steps, for: task, typeName: body.typeName, depth: depth, kept: .expiration) {
            step, name in
            Self.setsExpirationHandler(step, on: name)
        }
        // A handler that completes the task itself before it returns leaves nothing running to stop.
        let completesInline = closure.steps.contains { Self.completesDirectly($0, task) }
        if !expiration.found, !completesInline {
            let link =
                expiration.unresolved.first
                ?? EvidenceLink("no `expirationHandler` is set on `\(task)`", at: closure.location)
            findings.append(AnalysisFinding(ruleID: "BT012", location: call.location, chain: [register, link]))
        }
        let completion = search(
            closure.steps, for: task, typeName: body.typeName, depth: depth, skipsExpirationHandler: true,
            kept: .completion, matches: Self.completesOutsideExpiration)
        let weakNames = Set(closure.captures.filter { $0.strength != .strong }.map(\.name))
        if !completion.found, !completion.unresolved.isEmpty,
            let exit = earlyExit(in: closure.steps, task: task, typeName: body.typeName, depth: 2, weakNames: weakNames)
        {
            // A completion the audit cannot follow (a task kept in a property), and a path that leaves before it.
            findings.append(AnalysisFinding(ruleID: "BT011", location: exit.location, chain: [register, exit]))
        } else if !completion.found {
            // No path completes it, or only its expiration handler does.
            let link =
                completion.unresolved.first
                ?? EvidenceLink(
                    "nothing completes `\(task)` but, at most, its expiration handler", at: closure.location)
            findings.append(AnalysisFinding(ruleID: "BT011", location: call.location, chain: [register, link]))
        } else if let exit = earlyExit(
            in: closure.steps, task: task, typeName: body.typeName, depth: 2, weakNames: weakNames)
        {
            findings.append(AnalysisFinding(ruleID: "BT011", location: exit.location, chain: [register] + [exit]))
        } else if !search(
            closure.steps, for: task, typeName: body.typeName, depth: depth, skipsExpirationHandler: true,
            followsCallbacks: false, matches: Self.completesDirectly
        ).found {
            // Every completion is in a callback of code whose name does not say it always calls it.
            let link = EvidenceLink(
                "completes `\(task)` only inside callbacks; that every path of the work calls one is not shown",
                at: closure.location, isEstablished: false)
            findings.append(AnalysisFinding(ruleID: "BT011", location: call.location, chain: [register, link]))
        } else if !completesInFlow(closure.steps, task: task, typeName: body.typeName, depth: depth) {
            // Every completion is inside a branch, a loop or a closure, here or in the project code the task is handed
            // to: the early exits were looked for, the conditions that choose the path were not.
            let link = EvidenceLink(
                "completes `\(task)` only on some branches of its work, here or in the code it hands the task to; that "
                    + "every path completes it is not shown", at: closure.location, isEstablished: false)
            findings.append(AnalysisFinding(ruleID: "BT011", location: call.location, chain: [register, link]))
        } else if !completesSynchronously(closure.steps, task: task, typeName: body.typeName, depth: depth),
            let idle = idleExpirationHandler(closure.steps, task: task, typeName: body.typeName)
        {
            // The work completes the task later; when time runs out first, nothing completes it and nothing stops it.
            let chain = [
                register,
                EvidenceLink("the expiration handler neither completes `\(task)` nor stops its work", at: idle),
                EvidenceLink(
                    "the work completes `\(task)` only after the handler returns: when time runs out first, nothing "
                        + "completes it before iOS's deadline (that the work always finishes in time is not shown)",
                    at: closure.location, isEstablished: false),
            ]
            findings.append(AnalysisFinding(ruleID: "BT011", location: call.location, chain: chain))
        }
        return findings
    }

    /// What a search found: whether the step was seen, and the calls it could not follow.
    struct Search {
        var found = false
        var unresolved: [EvidenceLink] = []
    }

    /// Whether `steps`, or the project code they hand `task` to, contain a step `matches` accepts.
    func search(
        _ steps: [Step], for task: String, typeName: String?, depth: Int, skipsExpirationHandler: Bool = false,
        followsCallbacks: Bool = true, kept: KeptTaskUse? = nil, matches: (Step, String) -> Bool
    ) -> Search {
        var result = Search()
        var work = steps
        // `guard let refreshTask = task as? BGAppRefreshTask`: the task under another name.
        let names = StepWalk.aliases(of: task, in: steps, boundBy: Self.names)
        while let step = work.popLast(), !result.found {
            if matches(step, task) {
                result.found = true
                break
            }
            // A completion inside the expiration handler is not a path of the work.
            if !skipsExpirationHandler || !Self.setsExpirationHandler(step, on: task) {
                work += children(of: step, followsCallbacks: followsCallbacks)
            }
            if let kept, let link = keptUse(kept, of: step, names: names, typeName: typeName) {
                result.unresolved.append(link)
            }
            for call in StepWalk.ownCalls(of: step) {
                guard
                    let position = Self.position(of: names, in: call)
                else { continue }
                // Past the depth the audit follows, what the callee does with the task is not shown.
                guard depth > 0 else {
                    result.unresolved.append(
                        EvidenceLink(
                            "hands `\(task)` to `\(call.name)`, deeper in the project than the audit follows",
                            at: call.location, isEstablished: false))
                    continue
                }
                let resolution = index.resolve(call, in: typeName)
                let declarations = resolution.declarations
                if declarations.isEmpty {
                    result.unresolved.append(
                        EvidenceLink(
                            "hands `\(task)` to `\(call.name)`, which the index cannot read", at: call.location,
                            isEstablished: false))
                } else if !resolution.isShown {
                    // Matched by its name alone: another type's method of that name may be the one that runs.
                    result.unresolved.append(
                        EvidenceLink(
                            "hands `\(task)` to a method named `\(call.name)`; which declaration runs is not shown",
                            at: call.location, isEstablished: false))
                }
                for declaration in declarations where declaration.parameters.indices.contains(position) {
                    let inner = search(
                        declaration.steps, for: declaration.parameters[position].name, typeName: declaration.typeName,
                        depth: depth - 1, skipsExpirationHandler: skipsExpirationHandler,
                        followsCallbacks: followsCallbacks, kept: kept, matches: matches)
                    if inner.found { return inner }
                    result.unresolved += inner.unresolved
                }
            }
        }
        return result
    }

    /// Whether `steps` complete `task` in their own flow: a statement at their top level (or in a `do`, a `defer`, every
    /// arm of an exhaustive branch, a closure passed on: when callbacks run is the callback check's question) completes
    /// it, or hands it to project code, resolved, that does so in its own flow.
    private func completesInFlow(_ steps: [Step], task: String, typeName: String?, depth: Int) -> Bool {
        let names = StepWalk.aliases(of: task, in: steps, boundBy: Self.names)
        return steps.contains { step in
            if Self.completesDirectly(step, task) { return true }
            if !Self.setsExpirationHandler(step, on: task) {
                for call in StepWalk.ownCalls(of: step) {
                    for case .closure(let closure) in call.arguments.map(\.value)
                    where completesInFlow(closure.steps, task: task, typeName: typeName, depth: depth) {
                        return true
                    }
                }
            }
            switch step.kind {
            case .guarded(let body, _), .deferred(let body):
                if completesInFlow(body, task: task, typeName: typeName, depth: depth) { return true }
            case .branch(let branch) where branch.isExhaustive && branch.form != .guard && !branch.arms.isEmpty:
                let all = branch.arms.allSatisfy {
                    completesInFlow($0, task: task, typeName: typeName, depth: depth)
                }
                if all { return true }
            default:
                break
            }
            guard depth > 0 else { return false }
            for call in StepWalk.ownCalls(of: step) {
                guard
                    let position = Self.position(of: names, in: call)
                else { continue }
                let resolution = index.resolve(call, in: typeName)
                guard resolution.isShown else { continue }
                let completes = resolution.declarations.contains { declaration in
                    declaration.parameters.indices.contains(position)
                        && completesInFlow(
                            declaration.steps, task: declaration.parameters[position].name,
                            typeName: declaration.typeName, depth: depth - 1)
                }
                if completes { return true }
            }
            return false
        }
    }

    /// What the keeper of a task kept in a property is looked for doing with it elsewhere.
    enum KeptTaskUse {
        case completion, expiration

        var text: String {
            switch self {
            case .completion: "completes a task"
            case .expiration: "sets a task's `expirationHandler`"
            }
        }
    }

    /// `self.task = task` (or `tasks[id] = task`, `helper.task = task`): the task kept where other code uses it later.
    /// Where the keeper's code (the type and its superclasses; any code for another object) completes a task or sets
    /// its expiration handler, "nothing does" is not shown; that every path of the work reaches it is not shown either.
    private func keptUse(_ use: KeptTaskUse, of step: Step, names: Set<String>, typeName: String?) -> EvidenceLink? {
        guard case .assign(let target, let value) = step.kind, names.contains(where: { Self.names($0, value) }) else {
            return nil
        }
        let path = target.path ?? []
        guard path.count != 1 || typeName.map({ !index.properties(named: path[0], in: $0).isEmpty }) == true else {
            return nil  // a local: the walk follows it
        }
        let keepers =
            if path.count <= 2, path.first.map({ $0 == "self" || path.count == 1 }) ?? false, let typeName {
                index.typeAndSuperclasses(of: typeName).flatMap { index.bodies(inType: $0) }
            } else {
                index.files.flatMap(\.bodies)
            }
        let found = keepers.lazy.compactMap { keeper -> CodeRange? in
            switch use {
            case .completion: keeper.calls.first(where: Self.isCompletion)?.location
            case .expiration:
                StepWalk.firstLocal(in: keeper.steps) { Self.setsExpirationHandler($0) ? $0.location : nil }
            }
        }.first
        guard let found else { return nil }
        return EvidenceLink(
            "keeps the task in `\(path.isEmpty ? "a collection" : path.joined(separator: "."))`; the project \(use.text) "
                + "kept so at \(found.path):\(found.line), on paths the audit does not follow",
            at: step.location, isEstablished: false)
    }

    /// The first exit of the handler's own flow before any completion of `task`; a `guard` on casting `task` to its
    /// registered type cannot fail and does not count.
    private func earlyExit(
        in steps: [Step], task: String, typeName: String?, depth: Int, weakNames: Set<String> = []
    ) -> EvidenceLink? {
        // `guard let refreshTask = task as? BGAppRefreshTask`: the task handed on under another name.
        let names = StepWalk.aliases(of: task, in: steps, boundBy: Self.names)
        let result = flow(of: steps, task: task, names: names, typeName: typeName, depth: depth, weakNames: weakNames)
        if case .exits(let link) = result { return link }
        return nil
    }

    /// How a run of steps ends for the task.
    private enum Flow {
        /// It leaves here without completing the task.
        case exits(EvidenceLink)
        /// It completes the task (or hands the completion on) before anything leaves.
        case completes
        /// It falls through to the steps after it.
        case continues
    }

    private func flow(
        of steps: [Step], task: String, names: Set<String>, typeName: String?, depth: Int, weakNames: Set<String>,
        expiryFlags: Set<String> = []
    ) -> Flow {
        // A flag the expiration handler sets (`completed = true`), read by a condition of the work: the branch it
        // chooses is the already-completed path, not an exit of the work.
        let expiryFlags = steps.compactMap(Self.expirationBody).reduce(into: expiryFlags) {
            $0.formUnion($1.assignedNames)
        }
        func readsFlag(_ branch: Step.Branch) -> Bool {
            branch.conditions.contains { condition in
                switch condition {
                case .expression(let expression): !expression.names.isDisjoint(with: expiryFlags)
                case .binding(_, let value): !(value?.names ?? []).isDisjoint(with: expiryFlags)
                }
            }
        }
        for step in steps {
            // The task handed to a project method that owns its completion: that method's early exits count.
            if depth > 0, let exit = helperExit(of: step, names: names, typeName: typeName, depth: depth) {
                return .exits(exit)
            }
            switch step.kind {
            case .exit(.return, let value), .exit(.throw, let value):
                // `return task.setTaskCompleted(success: true)` completes as it returns.
                if let value, StepWalk.calls(in: value).contains(where: Self.isCompletion) { return .completes }
                return .exits(EvidenceLink("returns without completing `\(task)`", at: step.location))
            case .branch(let branch) where readsFlag(branch):
                continue
            case .branch(let branch) where branch.form == .guard:
                // A cast of the task to its registered type cannot fail; `guard let self` of a `[weak self]` leaves
                // only if the object is gone, which depends on what keeps it alive. Any other condition can fail.
                func castsTask(_ condition: Step.Condition) -> Bool {
                    if case .binding(_, let value) = condition, let value { return Self.names(task, value) }
                    return false
                }
                func bindsWeak(_ condition: Step.Condition) -> Bool {
                    guard case .binding(let name, let value) = condition else { return false }
                    return weakNames.contains(name) || value?.path.map { weakNames.contains($0[0]) } == true
                }
                let canFail = branch.conditions.contains { !castsTask($0) && !bindsWeak($0) }
                let bindsWeak = branch.conditions.contains(where: bindsWeak)
                if canFail || bindsWeak,
                    branch.arms.first.map({ Self.leaves($0) && !$0.contains(where: Self.completesAny) }) == true
                {
                    return .exits(
                        !canFail
                            ? EvidenceLink(
                                "this guard leaves without completing `\(task)` when the weakly captured object is gone",
                                at: step.location, isEstablished: false)
                            : EvidenceLink("this guard leaves without completing `\(task)`", at: step.location))
                }
            case .branch(let branch):
                let arms = branch.arms.map {
                    flow(
                        of: $0, task: task, names: names, typeName: typeName, depth: depth, weakNames: weakNames,
                        expiryFlags: expiryFlags)
                }
                for case .exits(let link) in arms { return .exits(link) }
                let allComplete = arms.allSatisfy { if case .completes = $0 { true } else { false } }
                if branch.isExhaustive, !arms.isEmpty, allComplete { return .completes }
            default:
                // A completion inside the expiration handler is not one of the work's paths.
                if Self.setsExpirationHandler(step) { continue }
                // A closure the step passes to a call that runs it (`Task { … }`, `queue.async { … }`): its own flow,
                // early exits included, is the handler's from here.
                for call in StepWalk.ownCalls(of: step) where ClosureTiming(call) != .unknown {
                    // (Only a closure that uses the task: a `return` in `filter { … }` leaves the filter's closure.)
                    for closure in call.closures where names.contains(where: closure.reads) {
                        let inner = flow(
                            of: closure.steps, task: task, names: names, typeName: typeName, depth: depth,
                            weakNames: weakNames.union(closure.captures.filter { $0.strength != .strong }.map(\.name)),
                            expiryFlags: expiryFlags)
                        if case .continues = inner { continue }
                        return inner
                    }
                }
                if search([step], for: task, typeName: typeName, depth: depth, matches: Self.completes).found {
                    return .completes
                }
            }
        }
        return .continues
    }

    private static func isCompletion(_ call: CodeCall) -> Bool {
        if case .setTaskCompleted = SystemCall(call) { return true }
        return false
    }

    /// The first early exit of a project method `step` hands the task (under one of `names`) to, when that method
    /// completes it.
    private func helperExit(of step: Step, names: Set<String>, typeName: String?, depth: Int) -> EvidenceLink? {
        for call in StepWalk.ownCalls(of: step) {
            guard
                let position = Self.position(of: names, in: call)
            else { continue }
            let resolution = index.resolve(call, in: typeName)
            for declaration in resolution.declarations where declaration.parameters.indices.contains(position) {
                let parameter = declaration.parameters[position].name
                let owns = search(
                    declaration.steps, for: parameter, typeName: declaration.typeName, depth: 0,
                    skipsExpirationHandler: true, matches: Self.completesOutsideExpiration
                ).found
                if owns,
                    var exit = earlyExit(
                        in: declaration.steps, task: parameter, typeName: declaration.typeName, depth: depth - 1)
                {
                    // A call matched by its name alone may reach another type's method of that name.
                    if !resolution.isShown {
                        exit.text += " (if `\(call.name)` here reaches this method, matched by its name only)"
                        exit.isEstablished = false
                    }
                    return exit
                }
            }
        }
        return nil
    }

    /// Whether `step` itself completes a task (not in a closure it passes), and is not the expiration handler's setting.
    static func completesDirectly(_ step: Step, _ task: String) -> Bool {
        !setsExpirationHandler(step, on: task) && StepWalk.ownCalls(of: step).contains(where: isCompletion)
    }

    /// Whether `step` completes a task, not inside the expiration handler it sets.
    private static func completesOutsideExpiration(_ step: Step, _ task: String) -> Bool {
        !setsExpirationHandler(step, on: task) && completesAny(step)
    }

    private static func leaves(_ steps: [Step]) -> Bool {
        steps.contains { if case .exit = $0.kind { true } else { false } }
    }

    private static func completesAny(_ step: Step) -> Bool {
        StepWalk.calls(in: [step]).contains { if case .setTaskCompleted = SystemCall($0) { true } else { false } }
    }

    private static func completes(_ step: Step, _ task: String) -> Bool {
        completesAny(step)
    }

    /// `task.expirationHandler = …` or `[task setExpirationHandler:…]`.
    static func setsExpirationHandler(_ step: Step, on task: String = "") -> Bool {
        if case .assign(let target, _) = step.kind, let path = target.path, path.last == "expirationHandler" {
            return true
        }
        return StepWalk.calls(in: [step]).contains { $0.name == "setExpirationHandler" }
    }

    /// Where `call` passes the task (under one of `names`, its aliases) to its callee, if it does.
    static func position(of names: Set<String>, in call: CodeCall) -> Int? {
        call.arguments.firstIndex { argument in names.contains { Self.names($0, argument.value) } }
    }

    /// Whether `expression` is `task` (or a cast or member of it: `task as! BGAppRefreshTask`).
    static func names(_ task: String, _ expression: CodeExpression) -> Bool {
        switch expression {
        case .reference(let path): path.first == task
        case .other(let parts): parts.contains { names(task, $0) }
        default: false
        }
    }

    /// The steps `step` holds; with `followsCallbacks` off, not those of closures passed to a call whose name does not
    /// say when it runs them and that the project does not declare (a completion handler of another library).
    private func children(of step: Step, followsCallbacks: Bool = true) -> [Step] {
        var steps: [Step] = []
        func closures(_ expression: CodeExpression) {
            for call in StepWalk.calls(in: expression)
            where followsCallbacks || ClosureTiming(call) != .unknown || !index.bodies(named: call.name).isEmpty {
                for case .closure(let body) in call.arguments.map(\.value) { steps += body.steps }
            }
        }
        switch step.kind {
        case .evaluate(let expression), .declare(_, _, .some(let expression)): closures(expression)
        case .assign(_, let value): closures(value)
        case .branch(let branch): steps += branch.arms.flatMap { $0 }
        case .loop(_, let body), .deferred(let body): steps += body
        case .guarded(let body, let handlers): steps += body + handlers.flatMap { $0 }
        default: break
        }
        return steps
    }
}
