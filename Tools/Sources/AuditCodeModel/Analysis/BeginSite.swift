/// A raw begin in a body, with the body that holds it and its handler.
public struct BeginSite: Sendable {
    /// The begin call.
    public var call: CodeCall
    /// The declared body the call is in (a closure inside it included).
    public var body: CodeBody
    /// The task's name argument, as written.
    public var name: CodeExpression?
    /// The expiration handler argument, as written.
    public var handler: CodeExpression?

    /// Every begin in `file`'s bodies, nested closures included, in order. With `index`, a call the index shows
    /// reaches the project's own method of that name (`self.beginBackgroundTask()` in a type that declares one) is
    /// that method's call, not UIKit's.
    public static func all(in file: CodeFile, index: ProjectIndex? = nil) -> [BeginSite] {
        file.bodies.flatMap { body in
            body.calls.compactMap { call -> BeginSite? in
                guard case .begin(let name, let handler) = SystemCall(call) else { return nil }
                if let index, call.receiver == nil || call.receiver?.path == ["self"] {
                    let resolution = index.resolve(call, in: body.typeName, locals: body.steps)
                    if resolution.isShown, !resolution.declarations.isEmpty { return nil }
                }
                return BeginSite(call: call, body: body, name: name, handler: handler)
            }
        }
    }
}

/// Walks steps for the calls they make.
public enum StepWalk {
    /// Every call in `steps` and in the closures and nested bodies inside them, in order.
    public static func calls(in steps: [Step]) -> [CodeCall] {
        steps.flatMap(calls(in:))
    }

    private static func calls(in step: Step) -> [CodeCall] {
        switch step.kind {
        case .evaluate(let expression): return calls(in: expression)
        case .declare(_, _, let value): return value.map(calls(in:)) ?? []
        case .assign(let target, let value): return calls(in: target) + calls(in: value)
        case .exit(_, let value): return value.map(calls(in:)) ?? []
        case .branch(let branch):
            let conditions = branch.conditions.flatMap { condition -> [CodeCall] in
                switch condition {
                case .expression(let expression): calls(in: expression)
                case .binding(_, let value): value.map(calls(in:)) ?? []
                }
            }
            return conditions + branch.arms.flatMap(calls(in:))
        case .loop(let condition, let body): return condition.flatMap(calls(in:)) + calls(in: body)
        case .deferred(let body): return calls(in: body)
        case .guarded(let body, let handlers): return calls(in: body) + handlers.flatMap(calls(in:))
        case .nested(let body): return calls(in: body.steps)
        }
    }

    /// The calls a step makes itself, outermost first: not those inside the closures it passes, nor those of its
    /// branches' arms and loop bodies.
    public static func ownCalls(of step: Step) -> [CodeCall] {
        switch step.kind {
        case .evaluate(let expression), .declare(_, _, .some(let expression)): return expression.calls
        case .assign(let target, let value): return target.calls + value.calls
        case .exit(_, .some(let value)): return value.calls
        default: return []
        }
    }

    /// The statement lists nested in a step: a branch's arms, a loop's, `defer`'s and `do`'s bodies, `catch` blocks.
    public static func nestedBlocks(of step: Step) -> [[Step]] {
        switch step.kind {
        case .branch(let branch): branch.arms
        case .loop(_, let body), .deferred(let body): [body]
        case .guarded(let body, let handlers): [body] + handlers
        default: []
        }
    }

    /// Whether `steps` (or the blocks nested in them: arms, loop bodies, `defer`, `do`) declare `name`.
    public static func declares(_ name: String, in steps: [Step]) -> Bool {
        steps.contains { step in
            if case .declare(let declared, _, _) = step.kind, declared == name { return true }
            return nestedBlocks(of: step).contains { declares(name, in: $0) }
        }
    }

    /// The value the first declaration of the local `name` in `steps` (blocks and closures included) gives it.
    public static func localValue(of name: String, in steps: [Step]) -> CodeExpression? {
        firstLocal(in: steps) { step -> CodeExpression?? in
            if case .declare(let declared, _, let value) = step.kind, declared == name { return .some(value) }
            return nil
        } ?? nil
    }

    /// Whether `steps` first declare `name` as a local that is not shared with blocks (an Objective-C local without
    /// `__block`): a block copies its value when the block is made.
    public static func declaresCopiedLocal(_ name: String, in steps: [Step]) -> Bool {
        firstLocal(in: steps) { step -> Bool? in
            if case .declare(name, let isShared, _) = step.kind { return !isShared }
            return nil
        } ?? false
    }

    /// The function named `name` that `steps` (blocks and closures included) declare inside themselves:
    /// `func finish() { … }` in a method or in a closure, which a handler beside it may call before its declaration.
    public static func localFunction(named name: String, in steps: [Step]) -> CodeBody? {
        firstLocal(in: steps) { step in
            if case .nested(let body) = step.kind, body.kind != .closure, body.name == name { return body }
            return nil
        }
    }

    /// The first value `match` gives for a step of `steps`, their nested blocks and the closures they pass, in order.
    static func firstLocal<Found>(in steps: [Step], _ match: (Step) -> Found?) -> Found? {
        for step in steps {
            if let found = match(step) { return found }
            for block in StepWalk.nestedBlocks(of: step) {
                if let found = firstLocal(in: block, match) { return found }
            }
            for closure in StepWalk.ownCalls(of: step).flatMap(\.closures) {
                if let found = firstLocal(in: closure.steps, match) { return found }
            }
        }
        return nil
    }

    /// The closure the first assignment to `path` in `steps` (blocks included) stores: `self.cleanup = ^{ … }` for
    /// `["self", "cleanup"]`.
    public static func assignedClosure(to path: [String], in steps: [Step]) -> CodeBody? {
        for step in steps {
            if case .assign(let target, .closure(let closure)) = step.kind, target.path == path { return closure }
            for block in StepWalk.nestedBlocks(of: step) {
                if let found = assignedClosure(to: path, in: block) { return found }
            }
        }
        return nil
    }

    /// `name` and the locals bound to its value in `steps` (closures included): `if let id = name`, `guard let id =
    /// self.name`, `let id = name`. With `boundBy`, a local is bound when `boundBy(alias, value)` holds for any alias
    /// found so far (`guard let refresh = task as? BGAppRefreshTask`, then `let again = refresh`).
    public static func aliases(
        of name: String, in steps: [Step], boundBy: ((String, CodeExpression) -> Bool)? = nil
    ) -> Set<String> {
        var found: Set<String> = [name]
        func isBound(_ value: CodeExpression?) -> Bool {
            guard let value else { return false }
            guard let boundBy else { return value.path?.last == name }
            return found.contains { boundBy($0, value) }
        }
        func visit(_ steps: [Step]) -> Bool {
            var added = false
            for step in steps {
                switch step.kind {
                case .declare(let declared, _, let value) where isBound(value):
                    added = found.insert(declared).inserted || added
                case .branch(let branch):
                    for case .binding(let bound, let value) in branch.conditions
                    where isBound(value ?? .reference([bound])) {
                        added = found.insert(bound).inserted || added
                    }
                default: break
                }
                for block in nestedBlocks(of: step) { added = visit(block) || added }
                for closure in ownCalls(of: step).flatMap(\.closures) { added = visit(closure.steps) || added }
            }
            return added
        }
        // An alias of an alias is found on another pass; without `boundBy` only `name` binds, so one pass does.
        while visit(steps), boundBy != nil {}
        return found
    }

    /// The begins `steps` keep in a variable or property (`task = app.begin…`, `let id = app.begin…`), in nested
    /// blocks and in the closures passed to calls (not a begin's own handler) included: the name and the call. A call
    /// of one of `shims`' begin shims (``TaskShims``) kept in a variable is one too.
    public static func storedBegins(in steps: [Step], shims: TaskShims = .none) -> [(String, CodeCall)] {
        var found: [(String, CodeCall)] = []
        for step in steps {
            var stored: (String, CodeExpression)?
            switch step.kind {
            case .assign(let target, let value): stored = target.path?.last.map { ($0, value) }
            case .declare(let name, _, .some(let value)): stored = (name, value)
            default: break
            }
            if let (name, value) = stored {
                for call in value.calls where shims.begins(call) { found.append((name, call)) }
            }
            for block in nestedBlocks(of: step) { found += storedBegins(in: block, shims: shims) }
            for call in ownCalls(of: step) {
                if case .begin = SystemCall(call) { continue }
                for closure in call.closures { found += storedBegins(in: closure.steps, shims: shims) }
            }
        }
        return found
    }

    /// Every call in `expression`, the closures passed inside it included.
    public static func calls(in expression: CodeExpression) -> [CodeCall] {
        switch expression {
        case .call(let call):
            return [call] + (call.receiver.map(calls(in:)) ?? []) + call.arguments.flatMap { calls(in: $0.value) }
        case .closure(let body): return calls(in: body.steps)
        case .await(let inner): return calls(in: inner)
        case .other(let parts): return parts.flatMap(calls(in:))
        case .reference, .literal: return []
        }
    }
}
