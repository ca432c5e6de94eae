/// The conditions that decide whether a statement runs: the `if` / `guard` around it, or an
/// Objective-C `if (…)` without braces right before it.
extension FileAnalysis {
    /// The condition tokens of the innermost `if`, `else` or `guard … else` around the statement
    /// that starts at `start`, below `outer`: `(c)` in `if (c) return;`, `let self` in
    /// `guard let self else { return }`. An `else` block answers with its `if`'s condition.
    func decidingCondition(ofStatementAt start: Int, within outer: Int) -> Range<Int>? {
        if let braceless = bracelessCondition(before: start) { return braceless }
        var current = syntax.scope(containing: start)
        while let scope = current, scope != outer {
            if let condition = condition(ofControl: scope) { return condition }
            current = syntax.scopes[scope].parent
        }
        return nil
    }

    /// The condition that decides whether the exit at `index` (a `return`) is taken: of its statement, or of
    /// the exit itself (`guard … else { return }`, `if (x) return;`).
    func exitCondition(of index: Int, within outer: Int) -> Range<Int>? {
        decidingCondition(ofStatementAt: statementStart(of: index), within: outer)
            ?? decidingCondition(ofStatementAt: index, within: outer)
    }

    /// Every `if` / `else` / `guard … else` condition around the token, below `outer`, innermost first.
    func enclosingConditions(of index: Int, within outer: Int) -> [Range<Int>] {
        var conditions: [Range<Int>] = []
        if let braceless = bracelessCondition(before: statementStart(of: index)) { conditions.append(braceless) }
        var current = syntax.scope(containing: index)
        while let scope = current, scope != outer {
            if let condition = condition(ofControl: scope) { conditions.append(condition) }
            current = syntax.scopes[scope].parent
        }
        return conditions
    }

    /// Whether any of `names` appears as a plain identifier in `range`.
    func mentionsAny(_ names: Set<String>, in range: Range<Int>) -> Bool {
        names.contains { mentions($0, in: range) }
    }

    /// The condition of an `if`, `else` (its `if`'s) or `guard … else` block.
    func condition(ofControl scope: Int) -> Range<Int>? {
        let block = syntax.scopes[scope]
        guard block.kind == .control else { return nil }
        switch block.name {
        case "if":
            guard let keyword = keyword("if", before: block.open - 1) else { return nil }
            return (keyword + 1)..<block.open
        case "else":
            let elseToken = block.open - 1
            guard syntax.tokens[elseToken].isIdentifier("else") else { return nil }
            if let previous = syntax.token(elseToken - 1), previous.is("}"),
                let open = syntax.partner(of: elseToken - 1), let branch = syntax.scope(openedAt: open)
            {
                return condition(ofControl: branch)
            }
            if !syntax.isSwift, syntax.token(elseToken - 1)?.is(";") == true {
                return bracelessIfCondition(endingAt: elseToken - 1)
            }
            guard syntax.isSwift, let keyword = keyword("guard", before: elseToken - 1) else { return nil }
            return (keyword + 1)..<elseToken
        default:
            return nil
        }
    }

    /// `(c)` of an Objective-C `if (c) statement;` whose braceless statement ends with the `;` at `semicolon`
    /// (the `if` of an `else`): back over the statement's calls and messages to the `)` that closes an `if`.
    private func bracelessIfCondition(endingAt semicolon: Int) -> Range<Int>? {
        var cursor = semicolon - 1
        while cursor > 0 {
            let token = syntax.tokens[cursor]
            if token.is(";") || token.is("{") || token.is("}") { return nil }
            if token.is(")") || token.is("]"), let open = syntax.partner(of: cursor) {
                if token.is(")"), syntax.token(open - 1)?.isIdentifier("if") == true { return open..<(cursor + 1) }
                cursor = open - 1
                continue
            }
            cursor -= 1
        }
        return nil
    }

    /// `(c)` when the statement at `start` is the body of an Objective-C `if (c)` without braces.
    func bracelessCondition(before start: Int) -> Range<Int>? {
        guard !syntax.isSwift, let previous = syntax.token(start - 1), previous.is(")"),
            let open = syntax.partner(of: start - 1), syntax.token(open - 1)?.isIdentifier("if") == true
        else { return nil }
        return open..<start
    }

    /// The first token of the statement around `index`: back over brackets to a `;`, `{` or `}`
    /// (in Swift also to a line break that does not continue a `.` chain).
    func statementStart(of index: Int) -> Int {
        var position = index
        var steps = 0
        while position > 0, steps < 256 {
            let previous = syntax.tokens[position - 1]
            if previous.is(";") || previous.is("{") || previous.is("}") { return position }
            if !syntax.isSwift, previous.is(")"), syntax.token(position)?.is("[") == true,
                bracelessCondition(before: position) != nil
            {
                return position
            }
            if syntax.isSwift, previous.line < syntax.tokens[position].line, !previous.is("."),
                !syntax.tokens[position].is("."), !previous.is("("), !previous.is(","), !previous.is("=")
            {
                return position
            }
            if previous.is(")") || previous.is("]"), let open = syntax.partner(of: position - 1) {
                position = open
            } else {
                position -= 1
            }
            steps += 1
        }
        return position
    }

    /// The `keyword` that starts the condition ending at `index`, back over brackets, stopping at a
    /// statement boundary.
    private func keyword(_ keyword: String, before index: Int) -> Int? {
        var position = index
        var steps = 0
        while position >= 0, steps < 256 {
            let token = syntax.tokens[position]
            if token.isIdentifier(keyword) { return position }
            if token.is(";") || token.is("{") { return nil }
            if token.is(")") || token.is("]") || token.is("}") {
                guard let open = syntax.partner(of: position) else { return nil }
                position = open - 1
            } else {
                position -= 1
            }
            steps += 1
        }
        return nil
    }
}
