import AuditCodeModel

/// The statements of an Objective-C body: `if`/`else`, `switch`, loops, `return`, `@try`, `@synchronized`, local
/// declarations (which remember their `__weak` names), assignments and expressions.
struct ObjectiveCStatements {
    let syntax: SourceSyntax
    let path: String
    /// The `__weak` (or `__unsafe_unretained`) locals declared so far, which blocks that name them capture weakly.
    var weakNames: Set<String> = []

    var tokens: [Token] { syntax.tokens }

    func partner(_ index: Int) -> Int? {
        guard index >= 0, index < syntax.partner.count else { return nil }
        let other = Int(syntax.partner[index])
        return other > index ? other : nil
    }

    func range(_ first: Int, _ last: Int) -> CodeRange {
        let start = tokens[first]
        let end = tokens[max(first, min(last, tokens.count - 1))]
        return CodeRange(path: path, line: Int(start.line), column: Int(start.column), endLine: Int(end.line))
    }

    /// The steps of the tokens `start..<end`.
    mutating func steps(from start: Int, to end: Int) -> [Step] {
        var steps: [Step] = []
        var index = start
        while index < end {
            let (parsed, next) = statement(at: index, end: end)
            steps += parsed
            index = max(next, index + 1)
        }
        return steps
    }

    /// One statement at `index`: its steps and the index after it.
    private mutating func statement(at index: Int, end: Int) -> ([Step], Int) {
        let token = tokens[index]
        let at = range(index, index)
        if token.is("{"), let close = partner(index) {
            return (steps(from: index + 1, to: min(close, end)), close + 1)
        }
        if token.is(";") { return ([], index + 1) }
        let keyword = token.kind == .identifier || token.kind == .directive ? token.text : ""
        switch keyword {
        case "if":
            return ifStatement(at: index, end: end)
        case "for", "while":
            guard let close = parenthesis(after: index) else { break }
            let condition = expression(from: index + 2, to: close)
            let (body, next) = statement(at: close + 1, end: end)
            return ([Step(.loop(condition: [condition], body: body), at: at)], next)
        case "do":
            let (body, next) = statement(at: index + 1, end: end)
            var after = next
            if syntax.token(after)?.isIdentifier("while") == true, let close = parenthesis(after: after) {
                after = close + 1
            }
            if syntax.token(after)?.is(";") == true { after += 1 }
            return ([Step(.loop(condition: [], body: body), at: at)], after)
        case "switch":
            return switchStatement(at: index, end: end)
        case "return", "@throw":
            let stop = statementEnd(from: index + 1, end: end)
            let value = stop > index + 1 ? expression(from: index + 1, to: stop) : nil
            return ([Step(.exit(token.text == "return" ? .return : .throw, value: value), at: at)], stop + 1)
        case "break", "continue":
            return ([Step(.exit(token.text == "break" ? .break : .continue, value: nil), at: at)], index + 2)
        case "@try":
            return tryStatement(at: index, end: end)
        case "@synchronized", "@autoreleasepool":
            var next = index + 1
            var lead: [Step] = []
            if token.text == "@synchronized", let close = parenthesis(after: index) {
                // Kept as a call named `synchronized`, so that the rules see the lock.
                let object = CodeCall.Argument(label: nil, value: expression(from: index + 2, to: close))
                lead = [
                    Step(
                        .evaluate(
                            .call(CodeCall(receiver: nil, name: "synchronized", arguments: [object], location: at))),
                        at: at)
                ]
                next = close + 1
            }
            let (body, after) = statement(at: next, end: end)
            return (lead + body, after)
        case "else", "case", "default":
            return ([], index + 1)
        default:
            break
        }
        let stop = statementEnd(from: index, end: end)
        return (simpleStatement(from: index, to: stop), stop + 1)
    }

    /// The index of the `;` ending the statement that starts at `index` (brackets skipped), or `end`.
    func statementEnd(from index: Int, end: Int) -> Int {
        var position = index
        while position < end {
            let token = tokens[position]
            if token.is(";") { return position }
            if token.is("(") || token.is("[") || token.is("{"), let close = partner(position) {
                position = close + 1
                continue
            }
            position += 1
        }
        return end
    }

    /// The `)` of the parenthesis right after `index` (`if (…)`, `while (…)`).
    private func parenthesis(after index: Int) -> Int? {
        guard syntax.token(index + 1)?.is("(") == true else { return nil }
        return partner(index + 1)
    }

    private mutating func ifStatement(at index: Int, end: Int) -> ([Step], Int) {
        guard let close = parenthesis(after: index) else { return ([], index + 1) }
        let condition = expression(from: index + 2, to: close)
        let (then, next) = statement(at: close + 1, end: end)
        var arms = [then]
        var after = next
        if syntax.token(after)?.isIdentifier("else") == true {
            let (otherwise, afterElse) = statement(at: after + 1, end: end)
            arms.append(otherwise)
            after = afterElse
        }
        // `if (@available(iOS 13.0, *))`: the audit reads code as it runs on a current system, where the check
        // passes (the else is for systems where, for one, `BGTaskScheduler` never calls a launch handler).
        if isAvailabilityCheck(from: index + 2, to: close) { return (then, after) }
        let branch = Step.Branch(
            form: .if, conditions: [.expression(condition)], arms: arms, isExhaustive: arms.count == 2)
        return ([Step(.branch(branch), at: range(index, close))], after)
    }

    /// Whether the tokens `start..<end` are one availability check: `@available(…)` or `__builtin_available(…)`.
    private func isAvailabilityCheck(from start: Int, to end: Int) -> Bool {
        guard let first = syntax.token(start),
            first.text == "@available" || first.isIdentifier("__builtin_available"),
            syntax.token(start + 1)?.is("(") == true, let close = partner(start + 1)
        else { return false }
        return close == end - 1
    }

    private mutating func switchStatement(at index: Int, end: Int) -> ([Step], Int) {
        guard let close = parenthesis(after: index), syntax.token(close + 1)?.is("{") == true,
            let bodyClose = partner(close + 1)
        else { return ([], index + 1) }
        let subject = expression(from: index + 2, to: close)
        var arms: [[Step]] = []
        var hasDefault = false
        var armStart: Int?
        var position = close + 2
        while position <= bodyClose {
            let token = tokens[position]
            let isLabel = token.isIdentifier("case") || token.isIdentifier("default")
            if isLabel || position == bodyClose {
                if let start = armStart { arms.append(steps(from: start, to: position)) }
                if token.isIdentifier("default") { hasDefault = true }
                guard position < bodyClose,
                    let colon = (position..<bodyClose).first(where: { tokens[$0].is(":") })
                else { break }
                armStart = colon + 1
                position = colon + 1
                continue
            }
            if token.is("{") || token.is("(") || token.is("["), let inner = partner(position) {
                position = inner + 1
                continue
            }
            position += 1
        }
        let branch = Step.Branch(
            form: .switch, conditions: [.expression(subject)], arms: arms, isExhaustive: hasDefault)
        return ([Step(.branch(branch), at: range(index, close))], bodyClose + 1)
    }

    private mutating func tryStatement(at index: Int, end: Int) -> ([Step], Int) {
        let (body, next) = statement(at: index + 1, end: end)
        var handlers: [[Step]] = []
        var finally: [Step] = []
        var after = next
        while let token = syntax.token(after), token.kind == .directive,
            token.text == "@catch" || token.text == "@finally"
        {
            var blockStart = after + 1
            if token.text == "@catch", let close = parenthesis(after: after) { blockStart = close + 1 }
            let (handler, afterHandler) = statement(at: blockStart, end: end)
            if token.text == "@catch" { handlers.append(handler) } else { finally = handler }
            after = afterHandler
        }
        return ([Step(.guarded(body: body, handlers: handlers), at: range(index, index))] + finally, after)
    }
}
