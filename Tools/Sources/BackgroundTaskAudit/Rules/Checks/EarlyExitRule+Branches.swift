/// BT008 on a branch: the code that ends the task — a completion, or the function itself — ends it
/// on one branch of an `if` / `else` or one `case` of a `switch`, and another branch neither ends
/// it nor passes it on, with no end after the branches. On that branch (an error, a retry) the task
/// runs to expiry.
///
/// And a completion that ends the task but is passed to an optional-chained call
/// (`api?.fetch(request) { … end … }`): when the receiver is `nil`, the call and its completion
/// never run, and nothing ends the task.
extension EarlyExitRule {
    static func branchHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        let helpers = analysis.functionsThatEnd
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), case .local = binding.storage else { continue }
            let handler = analysis.handlerScope(of: site).map { syntax.scopes[$0] }
            let ends = analysis.ends(of: binding).map(\.nameToken).filter { end in
                end > site.end && !(handler?.contains(end) ?? false)
            }.sorted()
            guard let first = ends.first, let owner = syntax.executableScope(containing: first) else { continue }
            let inOwner = ends.filter { syntax.executableScope(containing: $0) == owner }
            // Whether a range ends the task, or hands the identifier (or the work) on: then it is not a leak here.
            func handles(_ range: Range<Int>) -> Bool {
                inOwner.contains { range.contains($0) } || analysis.mentionsVariable(binding.name, in: range)
                    || !helperCalls(in: range, helpers, analysis).isEmpty
                    || range.contains { syntax.tokens[$0].isIdentifier("fatalError") }
            }
            if let branch = unendedBranch(around: first, owner: owner, handles: handles, syntax),
                reported.insert(branch.token).inserted
            {
                let line = syntax.tokens[first].line
                hits.append(
                    RuleHit(
                        token: branch.token,
                        message:
                            "This branch (\(branch.label)) does not end `\(binding.written)`, which the other ends "
                            + "(line \(line)): on this path the task begun on line \(syntax.tokens[site.nameToken].line) "
                            + "runs to expiry; end it on every branch, or use withBackgroundTask."
                    )
                )
            }
            if syntax.isSwift, owner != syntax.namedFunction(containing: site.nameToken),
                syntax.scopes[owner].kind == .closure, let chained = optionalChain(before: owner, syntax),
                reported.insert(chained.token).inserted
            {
                hits.append(
                    RuleHit(
                        token: chained.token,
                        message: "When `\(chained.receiver)` is nil, `\(chained.call)` is not called, nor the closure "
                            + "that ends `\(binding.written)` (line \(syntax.tokens[first].line)): the task begun on line "
                            + "\(syntax.tokens[site.nameToken].line) runs to expiry; end it when the receiver is nil, or "
                            + "use withBackgroundTask."
                    )
                )
            }
        }
        return hits
    }

    /// The innermost `switch` case or `if` / `else` branch around `end` (below `owner`) whose sibling branch
    /// does not handle the task, when nothing after the branches in `owner` ends it either.
    private static func unendedBranch(
        around end: Int, owner: Int, handles: (Range<Int>) -> Bool, _ syntax: SourceSyntax
    ) -> (token: Int, label: String)? {
        var current = syntax.scope(containing: end)
        while let scope = current, scope != owner {
            let region = syntax.scopes[scope]
            defer { current = region.parent }
            guard region.kind == .control else {
                if region.isExecutable { return nil }
                continue
            }
            // Anything after this branching, in the owner, that ends the task covers every branch.
            let ownerClose = syntax.scopes[owner].close
            if region.name == "switch" {
                let cases = ((region.open + 1)..<region.close).filter { index in
                    (syntax.tokens[index].isIdentifier("case") || syntax.tokens[index].isIdentifier("default"))
                        && syntax.scope(containing: index) == scope
                }
                let bounds = zip(cases, cases.dropFirst().map { $0 } + [region.close]).map { $0..<$1 }
                guard bounds.contains(where: { $0.contains(end) }),
                    !handles(Range(guarding: region.close + 1, ownerClose))
                else {
                    return nil
                }
                if let other = bounds.first(where: { !$0.contains(end) && !handles($0) }) {
                    var colon = other.lowerBound
                    while colon < other.upperBound, !syntax.tokens[colon].is(":") { colon += 1 }
                    return (other.lowerBound, "`\(syntax.spacedText(other.lowerBound..<colon))`")
                }
                return nil
            }
            if region.name == "if" || region.name == "else" {
                // After both branches (the `else` may be the later one, holding the end).
                guard let sibling = siblingBranch(of: scope, syntax),
                    !handles(Range(guarding: max(region.close, sibling.close) + 1, ownerClose))
                else { return nil }
                let branch = syntax.scopes[sibling.scope]
                if handles(branch.open..<branch.close) { return nil }
                let label = branch.name == "else" ? "`else`" : "`if`"
                return (branch.open, label)
            }
        }
        return nil
    }

    /// The `else` after an `if` block, or the `if` block before an `else`, with the same parent.
    private static func siblingBranch(of scope: Int, _ syntax: SourceSyntax) -> (scope: Int, open: Int, close: Int)? {
        let region = syntax.scopes[scope]
        let siblings = syntax.scopes.indices.filter { other in
            other != scope && syntax.scopes[other].parent == region.parent && syntax.scopes[other].kind == .control
        }
        if region.name == "if" {
            guard let next = siblings.first(where: { syntax.scopes[$0].open > region.close }),
                syntax.scopes[next].name == "else", syntax.token(region.close + 1)?.isIdentifier("else") == true,
                syntax.token(region.close + 2)?.is("{") == true
            else { return nil }
            return (next, syntax.scopes[next].open, syntax.scopes[next].close)
        }
        guard let previous = siblings.last(where: { syntax.scopes[$0].close < region.open }),
            syntax.scopes[previous].name == "if",
            syntax.token(syntax.scopes[previous].close + 1)?.isIdentifier("else") == true
        else { return nil }
        return (previous, syntax.scopes[previous].open, syntax.scopes[previous].close)
    }

    /// Calls of same-file helpers that end a task, in `range`.
    private static func helperCalls(in range: Range<Int>, _ helpers: Set<String>, _ analysis: FileAnalysis) -> [Int] {
        range.filter { index in
            helpers.contains(analysis.syntax.tokens[index].text) && analysis.syntax.token(index + 1)?.is("(") == true
        }
    }

    /// For a closure passed to a call: the call when its receiver is optional-chained (`api?.fetch(…) { … }`).
    private static func optionalChain(before closure: Int, _ syntax: SourceSyntax) -> (
        token: Int, receiver: String, call: String
    )? {
        var cursor = syntax.scopes[closure].open - 1
        if syntax.token(cursor)?.is(")") == true, let open = syntax.partner(of: cursor) { cursor = open - 1 }
        // A labelled argument closure: back over `completion:` and the other arguments to the call's `(`.
        if syntax.token(cursor)?.is(":") == true {
            var depth = 0
            while cursor > 0 {
                let token = syntax.tokens[cursor]
                if token.is(")") { depth += 1 }
                if token.is("(") {
                    if depth == 0 { break }
                    depth -= 1
                }
                if token.is("{") || token.is("}") || token.is(";") { return nil }
                cursor -= 1
            }
            cursor -= 1
        }
        guard let name = syntax.token(cursor), name.kind == .identifier, syntax.token(cursor - 1)?.is(".") == true,
            let question = syntax.token(cursor - 2), question.kind == .operator, question.text == "?"
        else { return nil }
        let start = ReceiverScanner(syntax: syntax).expressionStart(endingAt: cursor)
        guard start < cursor - 2 else { return nil }
        return (cursor - 2, syntax.spacedText(start..<(cursor - 2)), name.text)
    }
}
