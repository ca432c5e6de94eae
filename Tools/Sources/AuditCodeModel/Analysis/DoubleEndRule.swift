/// BT007 over the code model: the same task ended twice. Proven when the expiration handler ends the identifier's
/// variable without resetting it and another path of the same file ends that variable too: after the handler ran,
/// the other end ends the task a second time (or, if the identifier was reused, somebody else's task).
public struct DoubleEndRule: Sendable {
    /// Creates the rule.
    public init() {}

    /// The findings for every begin in `file` whose identifier is kept in a variable.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            Self.assignedBegins(in: body.steps).compactMap { name, call, handler in
                // A local is ended only in its own body; a property anywhere in its type (in this file).
                let scope =
                    StepWalk.declares(name, in: body.steps)
                    ? [body] : file.bodies.filter { $0.typeName == body.typeName }
                return finding(name: name, call: call, handler: handler, scope: scope)
            }
        }
    }

    private func finding(name: String, call: CodeCall, handler: CodeBody, scope: [CodeBody]) -> AnalysisFinding? {
        let handlerCalls = handler.calls
        guard let handlerEnd = handlerCalls.first(where: { Self.ends($0, name) }) else { return nil }
        if Self.resets(handler.steps, name) { return nil }
        let others = scope.flatMap { $0.calls }.filter { other in
            Self.ends(other, name) && !handler.location.contains(line: other.location.line)
        }
        guard let other = others.first else { return nil }
        // A handler that cancels the work first (`operation.cancel()`, `subscription?.cancel()`) may keep the work's
        // end from running: whether it does depends on code the audit does not read.
        let cancelsWork = handlerCalls.contains { handlerCall in
            ["cancel", "invalidate", "stop", "cancelAllOperations"].contains(handlerCall.name)
                && handlerCall.location.line <= handlerEnd.location.line
        }
        let chain = [
            EvidenceLink("begins a task kept in `\(name)`", at: call.location),
            EvidenceLink("the handler ends `\(name)` and does not reset it", at: handlerEnd.location),
            EvidenceLink(
                "this ends `\(name)` again when the work finishes after the handler ran: a second end of the same task"
                    + (cancelsWork ? " (unless the handler's cancel keeps this end from running)" : ""),
                at: other.location, isEstablished: !cancelsWork),
        ]
        return AnalysisFinding(ruleID: "BT007", location: other.location, chain: chain)
    }

    private static func isNil(_ value: CodeExpression) -> Bool {
        if case .literal(.nil) = value { return true }
        return false
    }

    /// The begins stored in a variable or property, with the name and the handler closure.
    private static func assignedBegins(in steps: [Step]) -> [(String, CodeCall, CodeBody)] {
        var found: [(String, CodeCall, CodeBody)] = []
        for step in steps {
            var stored: (String, CodeExpression)?
            switch step.kind {
            case .assign(let target, let value): stored = target.path?.last.map { ($0, value) }
            case .declare(let name, _, .some(let value)): stored = (name, value)
            default: break
            }
            if let (name, value) = stored {
                for call in value.calls {
                    if case .begin(_, .closure(let handler)) = SystemCall(call) { found.append((name, call, handler)) }
                }
            }
            let nested = StepWalk.nestedBlocks(of: step)
            for block in nested { found += assignedBegins(in: block) }
            for closure in StepWalk.ownCalls(of: step).filter(Self.isNotBegin).flatMap(\.closures) {
                found += assignedBegins(in: closure.steps)
            }
        }
        return found
    }

    private static func isNotBegin(_ call: CodeCall) -> Bool {
        if case .begin = SystemCall(call) { false } else { true }
    }

    /// Whether `call` ends the task in the variable `name`.
    private static func ends(_ call: CodeCall, _ name: String) -> Bool {
        if case .end(let argument) = SystemCall(call) { return argument?.path?.last == name }
        return false
    }

    /// Whether `steps` assign `name` an invalid identifier (`.invalid`, `UIBackgroundTaskInvalid`), anywhere.
    private static func resets(_ steps: [Step], _ name: String) -> Bool {
        func check(_ steps: [Step]) -> Bool {
            steps.contains { step in
                switch step.kind {
                case .assign(let target, let value):
                    return target.path?.last == name
                        && (EndAnalysis.isInvalidIdentifier(value.path?.last) || Self.isNil(value))
                case .branch(let branch): return branch.arms.contains(where: check)
                case .loop(_, let body), .deferred(let body), .guarded(let body, _): return check(body)
                case .evaluate(let expression):
                    return StepWalk.calls(in: expression).flatMap(\.closures).contains { check($0.steps) }
                default: return false
                }
            }
        }
        return check(steps)
    }
}
