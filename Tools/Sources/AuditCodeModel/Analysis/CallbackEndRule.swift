/// BT008 for a task whose end is inside a callback: the begin's body ends the task only in a closure it passes to
/// other code, and a path never reaches that end. Proven when the path is in code the index reads: the callback
/// returns before the end (`if (interrupted) return;`), or the project method it is passed to returns without
/// calling it (`guard canSynchronize else { return }`). Suspected when the callback is passed to code the index
/// cannot read and whose name does not say when it runs it: that every path calls it is not shown.
public struct CallbackEndRule: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rule over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every begin in `file` whose identifier is kept in a variable.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            StepWalk.storedBegins(in: body.steps, shims: index.shims).compactMap { name, begin in
                finding(name: name, begin: begin, in: body)
            }
        }
    }

    private func finding(name: String, begin: CodeCall, in body: CodeBody) -> AnalysisFinding? {
        let handler = begin.closures.first?.location
        let ends = Self.ends(of: name, in: body.steps, chain: [], shims: index.shims).filter { end in
            !(handler.map { $0.contains(line: end.call.location.line) } ?? false)
        }
        // Only ends inside callbacks; a direct end is ``EarlyExitRule``'s to check.
        guard !ends.isEmpty, ends.allSatisfy({ !$0.chain.isEmpty }) else { return nil }
        // A property another method of the type also ends (on the return to the foreground, say) is not lost here.
        if !StepWalk.declares(name, in: body.steps), let type = body.typeName,
            index.bodies(inType: type).contains(where: { other in
                other !== body && other.kind != .closure
                    && other.calls.contains { call in
                        if case .end(let argument) = SystemCall(call) {
                            return EarlyExitRule.sameIdentifier(argument?.path?.last, name)
                        }
                        return false
                    }
            })
        {
            return nil
        }
        let beginLink = EvidenceLink.begin("a background task", keptIn: name, at: begin.location)
        var suspected: AnalysisFinding?
        for end in ends {
            // The closures around the begin itself are not callbacks of the task.
            for (call, closure) in end.chain where !closure.location.contains(line: begin.location.line) {
                // The callback returns before it reaches the end.
                let weakNames = Set(closure.captures.filter { $0.strength != .strong }.map(\.name))
                if let (exit, onWeak) = Self.exitBeforeEnd(
                    in: closure.steps, name: name, weakNames: weakNames, shims: index.shims)
                {
                    let link = EvidenceLink(
                        "the callback of `\(call.name)` returns here before it ends `\(name)`"
                            + (onWeak ? " when the weakly captured object is gone" : "") + ": the task is never ended",
                        at: exit, isEstablished: !onWeak)
                    return AnalysisFinding(ruleID: "BT008", location: exit, chain: [beginLink, link])
                }
                let resolution = index.resolve(call, in: body.typeName, locals: body.steps)
                let declarations = resolution.declarations
                for declaration in declarations {
                    guard let parameter = parameter(receiving: closure, of: call, in: declaration),
                        let path = leaves(without: parameter, in: declaration, depth: Self.handOffDepth)
                    else { continue }
                    let link = EvidenceLink(
                        "ends `\(name)` only when `\(call.name)` calls back", at: end.call.location)
                    // A call matched by its name alone may reach another type's method of that name.
                    let shown = resolution.isShown && path.isShown
                    var links = path.links
                    links[links.count - 1].text +=
                        ": the task is never ended"
                        + (shown ? "" : " (if the call, matched by name, reaches this method)")
                    links[links.count - 1].isEstablished = shown
                    return AnalysisFinding(ruleID: "BT008", location: begin.location, chain: [beginLink, link] + links)
                }
                if declarations.isEmpty, ClosureTiming(call) == .unknown, suspected == nil {
                    let link = EvidenceLink(
                        "ends `\(name)` only in a callback of `\(call.name)`, code the index cannot read: that every "
                            + "path of it calls back is not shown", at: end.call.location, isEstablished: false)
                    suspected = AnalysisFinding(ruleID: "BT008", location: begin.location, chain: [beginLink, link])
                }
            }
        }
        return suspected
    }

    /// How many hand-offs of a callback are followed: `upload(completion)` → `send(completion)` → `post(done)`.
    static let handOffDepth = 3

    /// A path on which `declaration` returns without calling `parameter`, as the links that show it: its own `return`
    /// before the call, or the first call it hands `parameter` to (as is, or in a closure that calls it) whose own
    /// declaration returns without calling back, followed `depth` hand-offs deep. `isShown` is false when a hand-off
    /// was matched by name alone. `nil` when every path calls it, or the hand-off is code the index cannot read.
    private func leaves(
        without parameter: String, in declaration: CodeBody, depth: Int
    ) -> (links: [EvidenceLink], isShown: Bool)? {
        let method = declaration.name ?? "the method"
        if let (exit, _) = Self.exitWithoutCalling(parameter, in: declaration.steps) {
            return ([EvidenceLink("`\(method)` returns here without calling `\(parameter)`", at: exit)], true)
        }
        guard depth > 0, let (call, position) = Self.handOff(of: parameter, in: declaration.steps) else { return nil }
        let resolution = index.resolve(call, in: declaration.typeName, locals: declaration.steps)
        for callee in resolution.declarations where callee !== declaration {
            guard let received = Self.closureParameter(of: call, argument: position, in: callee),
                let inner = leaves(without: received, in: callee, depth: depth - 1)
            else { continue }
            let link = EvidenceLink("`\(method)` hands `\(parameter)` to `\(call.name)`", at: call.location)
            return ([link] + inner.links, resolution.isShown && inner.isShown)
        }
        return nil
    }

    /// The first call of `steps` (not inside a branch or a loop) that is given `parameter`: as an argument, or in a
    /// closure argument that calls it; with the argument's position. `nil` when a step calls it first.
    private static func handOff(of parameter: String, in steps: [Step]) -> (CodeCall, Int)? {
        func callsIt(_ call: CodeCall) -> Bool { call.name == parameter && call.receiver == nil }
        for step in steps {
            let calls = StepWalk.ownCalls(of: step)
            // Called before it is handed on: this path calls back.
            if calls.contains(where: callsIt) { return nil }
            for call in calls {
                for (position, argument) in call.arguments.enumerated() {
                    switch argument.value {
                    case .reference(let path) where path == [parameter]:
                        return (call, position)
                    case .closure(let closure) where closure.calls.contains(where: callsIt):
                        return (call, position)
                    default:
                        continue
                    }
                }
            }
        }
        return nil
    }

    /// An end of `name` and the calls (with the closure passed to each) it is inside, outermost first.
    private struct End {
        var call: CodeCall
        var chain: [(CodeCall, CodeBody)]
    }

    private static func ends(
        of name: String, in steps: [Step], chain: [(CodeCall, CodeBody)], shims: TaskShims
    ) -> [End] {
        var found: [End] = []
        for step in steps {
            for call in StepWalk.ownCalls(of: step) {
                if shims.ends(call, kept: name) { found.append(End(call: call, chain: chain)) }
                if case .begin = SystemCall(call) { continue }
                for closure in call.closures {
                    found += ends(of: name, in: closure.steps, chain: chain + [(call, closure)], shims: shims)
                }
            }
            for block in StepWalk.nestedBlocks(of: step) {
                found += ends(of: name, in: block, chain: chain, shims: shims)
            }
        }
        return found
    }

    /// The name `declaration` gives the parameter `closure` is passed as.
    private func parameter(receiving closure: CodeBody, of call: CodeCall, in declaration: CodeBody) -> String? {
        guard
            let position = call.arguments.firstIndex(where: { argument in
                if case .closure(let passed) = argument.value { return passed === closure }
                return false
            })
        else { return nil }
        return Self.closureParameter(of: call, argument: position, in: declaration)
    }

    /// The closure parameter of `declaration` that `call`'s argument at `position` is passed as, labels, default
    /// values and a trailing closure matched (`getOcs(url, account: a) { … }` against `getOcs(_:account:parameters:
    /// completion:)`); `nil` when it is passed as no closure parameter (another overload's).
    private static func closureParameter(of call: CodeCall, argument position: Int, in declaration: CodeBody) -> String?
    {
        let argument = call.arguments[position].value
        for (index, parameter) in declaration.parameters.enumerated() where parameter.isClosure {
            switch (call.value(passedFor: index, of: declaration), argument) {
            case (.closure(let passed)?, .closure(let given)) where passed === given: return parameter.name
            case (.reference(let passed)?, .reference(let given)) where passed == given: return parameter.name
            default: continue
            }
        }
        return nil
    }

    /// The first `return` or `throw` reached before the steps end `name` (in any closure they pass included), and
    /// whether it is a `guard` that leaves when a weakly captured object is gone.
    private static func exitBeforeEnd(
        in steps: [Step], name: String, weakNames: Set<String>, shims: TaskShims
    ) -> (CodeRange, onWeak: Bool)? {
        firstExit(in: steps, weakNames: weakNames, checkedName: name) { step in
            StepWalk.calls(in: [step]).contains { shims.ends($0, kept: name) }
        }
    }

    /// The first `return` or `throw` of a method reached before it calls `parameter`, passes it on or stores it.
    private static func exitWithoutCalling(_ parameter: String, in steps: [Step]) -> (CodeRange, onWeak: Bool)? {
        firstExit(in: steps, weakNames: [], checkedName: parameter) { step in
            if case .assign(_, let value) = step.kind, value.mentions(parameter) { return true }
            if case .declare(_, _, let value?) = step.kind, value.mentions(parameter) { return true }
            return StepWalk.calls(in: [step]).contains { call in
                call.name == parameter || call.arguments.contains { $0.value.mentions(parameter) }
                    || call.receiver?.mentions(parameter) == true
            }
        }
    }

    /// The first exit in `steps` reached before a step `handles` accepts, and whether it is the `else` of a `guard`
    /// that binds one of `weakNames`; `nil` when every path handles first or falls off the end. A branch's arms are
    /// followed; a loop's body is not.
    private static func firstExit(
        in steps: [Step], weakNames: Set<String>, checkedName: String? = nil, handles: (Step) -> Bool
    ) -> (CodeRange, onWeak: Bool)? {
        for step in steps {
            // A branch is judged by its arms, not as a whole.
            if case .branch = step.kind {} else if handles(step) { return nil }
            switch step.kind {
            case .exit(.return, _), .exit(.throw, _):
                return (step.location, false)
            case .branch(let branch):
                // An exit under a check of the identifier (`guard id != .invalid`: it is already ended) or of the
                // completion itself (`if (!completion) return;`: nobody waits for it) is no leak.
                if let name = checkedName,
                    branch.conditions.contains(where: { condition in
                        switch condition {
                        case .expression(let expression): expression.mentions(name)
                        case .binding(_, let value): value?.mentions(name) ?? false
                        }
                    })
                {
                    continue
                }
                let bindsWeak =
                    branch.form == .guard
                    && branch.conditions.contains { condition in
                        guard case .binding(let bound, let value) = condition else { return false }
                        return weakNames.contains(bound) || value?.path.map { weakNames.contains($0[0]) } == true
                    }
                var allHandle = branch.isExhaustive
                for arm in branch.arms {
                    if let (exit, onWeak) = firstExit(
                        in: arm, weakNames: weakNames, checkedName: checkedName, handles: handles)
                    {
                        return (exit, onWeak || bindsWeak)
                    }
                    if !arm.contains(where: handles) { allHandle = false }
                }
                if allHandle { return nil }
            default:
                break
            }
        }
        return nil
    }
}
