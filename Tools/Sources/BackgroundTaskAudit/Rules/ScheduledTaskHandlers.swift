/// A `BGTaskScheduler` launch handler registered in a file: the call, the identifier argument, and the code that
/// handles the task (the handler closure or block, and the same-file functions it hands the task to).
struct ScheduledTaskRegistration {
    /// `register` (Swift) or `registerForTaskWithIdentifier` (Objective-C).
    let nameToken: Int
    /// The handler's own scope, and the functions of this file it hands the task to (two calls deep).
    let bodies: [Scope]
    /// The handler hands the task to a function this file does not have: its code is not all here.
    let handsTaskElsewhere: Bool
}

/// Finds a file's `BGTaskScheduler` registrations (BT011–BT013).
enum ScheduledTaskHandlers {
    /// Whether the file may register a launch handler or make a task request.
    static func mayApply(to syntax: SourceSyntax) -> Bool {
        !syntax.taskIdentifierLiterals.isEmpty
            || syntax.tokens.contains {
                $0.isIdentifier("registerForTaskWithIdentifier") || $0.isIdentifier("forTaskWithIdentifier")
            }
    }

    static func registrations(in syntax: SourceSyntax) -> [ScheduledTaskRegistration] {
        let tokens = syntax.tokens
        var found: [ScheduledTaskRegistration] = []
        for index in tokens.indices where tokens[index].kind == .identifier {
            let handler: Scope?
            if syntax.isSwift, tokens[index].text == "register", syntax.token(index + 1)?.is("(") == true,
                syntax.token(index + 2)?.isIdentifier("forTaskWithIdentifier") == true
            {
                handler = swiftHandler(callAt: index, in: syntax)
            } else if !syntax.isSwift, tokens[index].text == "registerForTaskWithIdentifier",
                syntax.token(index + 1)?.is(":") == true
            {
                handler = blockHandler(after: index, in: syntax)
            } else {
                continue
            }
            guard let handler else { continue }
            let names = [parameterName(of: handler, in: syntax)] + aliases(in: handler, syntax: syntax)
            var bodies = [handler]
            var elsewhere = false
            var frontier = [handler]
            for _ in 0..<2 {
                var next: [Scope] = []
                for body in frontier {
                    for callee in names.flatMap({ callees(handing: $0, in: body, syntax: syntax) }) {
                        let functions = syntax.scopes.filter { $0.kind == .function && baseName($0.name) == callee }
                        if functions.isEmpty { elsewhere = true }
                        for function in functions where !bodies.contains(where: { $0.open == function.open }) {
                            bodies.append(function)
                            next.append(function)
                        }
                    }
                }
                frontier = next
            }
            found.append(ScheduledTaskRegistration(nameToken: index, bodies: bodies, handsTaskElsewhere: elsewhere))
        }
        return found
    }

    /// A function's name, or an Objective-C method's first selector piece (`handleSync` of `handleSync:`).
    static func baseName(_ name: String?) -> String? {
        name.map { name in name.firstIndex(of: ":").map { String(name[..<$0]) } ?? name }
    }

    /// Whether any of `names` occurs in the registration's code.
    static func mentions(_ names: Set<String>, in registration: ScheduledTaskRegistration, syntax: SourceSyntax)
        -> Bool
    {
        registration.bodies.contains { body in
            (body.open..<min(body.close, syntax.tokens.count)).contains { index in
                syntax.tokens[index].kind == .identifier && names.contains(syntax.tokens[index].text)
            }
        }
    }

    /// Swift: the closure after `launchHandler:`, or the trailing closure.
    private static func swiftHandler(callAt index: Int, in syntax: SourceSyntax) -> Scope? {
        guard let close = syntax.partner(of: index + 1) else { return nil }
        for label in (index + 2)..<close
        where syntax.tokens[label].isIdentifier("launchHandler") && syntax.token(label + 1)?.is(":") == true {
            return closure(openedAt: label + 2, in: syntax)
        }
        return closure(openedAt: close + 1, in: syntax)
    }

    /// Objective-C: the block after `launchHandler:` (`^(BGTask *task) { … }`).
    private static func blockHandler(after index: Int, in syntax: SourceSyntax) -> Scope? {
        let limit = min(index + 40, syntax.tokens.count)
        guard let label = (index..<limit).first(where: { syntax.tokens[$0].isIdentifier("launchHandler") }) else {
            return nil
        }
        guard let brace = (label..<min(label + 20, syntax.tokens.count)).first(where: { syntax.tokens[$0].is("{") })
        else { return nil }
        return closure(openedAt: brace, in: syntax)
    }

    private static func closure(openedAt index: Int, in syntax: SourceSyntax) -> Scope? {
        guard syntax.token(index)?.is("{") == true, let scope = syntax.scope(openedAt: index) else { return nil }
        return syntax.scopes[scope].kind == .closure ? syntax.scopes[scope] : nil
    }

    /// The handler's task parameter: `task` in `{ task in`, `{ (task) in`, `^(BGTask *task) {`; `$0` otherwise.
    private static func parameterName(of handler: Scope, in syntax: SourceSyntax) -> String {
        if !syntax.isSwift {
            return syntax.token(handler.open - 2)?.kind == .identifier ? syntax.tokens[handler.open - 2].text : "task"
        }
        let limit = min(handler.open + 12, handler.close)
        guard let keyword = (handler.open + 1..<limit).first(where: { syntax.tokens[$0].isIdentifier("in") }) else {
            return "$0"
        }
        return (handler.open + 1..<keyword).last { syntax.tokens[$0].kind == .identifier }
            .map { syntax.tokens[$0].text } ?? "$0"
    }

    /// Names the handler gives the task: `let refresh = task as! BGAppRefreshTask`, `guard let x = task as? T`.
    private static func aliases(in handler: Scope, syntax: SourceSyntax) -> [String] {
        let name = parameterName(of: handler, in: syntax)
        var found: [String] = []
        let end = min(handler.close, syntax.tokens.count)
        for index in (handler.open + 1)..<end where syntax.tokens[index].isIdentifier(name) {
            guard index >= 3, syntax.tokens[index - 1].is("="), syntax.tokens[index - 2].kind == .identifier,
                ["let", "var"].contains(syntax.tokens[index - 3].text)
            else { continue }
            found.append(syntax.tokens[index - 2].text)
        }
        return found
    }

    /// Functions called in `body` with the task among their arguments: `handle(task: task)`, `handle(task as! X)`,
    /// `[self handle:task]`.
    private static func callees(handing name: String, in body: Scope, syntax: SourceSyntax) -> [String] {
        var names: [String] = []
        let end = min(body.close, syntax.tokens.count)
        for index in (body.open + 1)..<end where syntax.tokens[index].isIdentifier(name) {
            if syntax.isSwift {
                // The innermost call whose parentheses hold the task: its name is before the `(`.
                var cursor = index - 1
                var depth = 0
                while cursor > body.open {
                    let token = syntax.tokens[cursor]
                    if token.is(")") {
                        depth += 1
                    } else if token.is("(") {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    cursor -= 1
                }
                if cursor > body.open, syntax.tokens[cursor].is("("), syntax.tokens[cursor - 1].kind == .identifier {
                    names.append(syntax.tokens[cursor - 1].text)
                }
            } else if syntax.token(index - 1)?.is(":") == true, syntax.token(index - 2)?.kind == .identifier {
                names.append(syntax.tokens[index - 2].text)
            }
        }
        return names.filter {
            !["setTaskCompleted", "setTaskCompletedWithSuccess", "setExpirationHandler"].contains($0)
        }
    }
}
