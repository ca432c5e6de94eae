/// BT008 (best effort): a `return`, `throw` or uncaught `try` between a begin and its end that
/// leaves the code on the way to the end without ending the task.
///
/// Looks at the first end of the same identifier after the begin, in the same function, outside the
/// handler. An exit counts when it leaves a function or closure that contains that end, and its
/// own block has not ended the task before it. It does not follow loops (`break`, `continue`),
/// `switch` fallthrough or calls that never return.
enum EarlyExitRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT008",
        severity: .warning,
        summary: "Early return, throw or guard between begin and end that skips the end (best effort)"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        exitHits(in: analysis) + neverEndedHits(in: analysis) + workPathHits(in: analysis)
            + helperSequenceHits(in: analysis) + branchHits(in: analysis) + passedCompletionHits(in: analysis)
    }

    private static func exitHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site) else { continue }
            let handler = analysis.handlerScope(of: site)
            let function = syntax.namedFunction(containing: site.nameToken)
            // The identifier's ends, and for a stored one the calls of same-file helpers that end it
            // (`endTask()`, `[self finishTask]`) in this function.
            var ends = analysis.ends(of: binding).map(\.nameToken)
            var helperEnds: Set<Int> = []
            if binding.storage == .property, let function {
                // Only helpers that end this identifier (`endUploadTask()` is not the end of the download task).
                let enders = Set(
                    ends.compactMap { end in
                        syntax.namedFunction(containing: end).flatMap { syntax.scopes[$0].name }
                            .map { String($0.prefix { $0 != ":" }) }
                    })
                helperEnds = Set(
                    analysis.helperEndCalls(in: function, helpers: enders).filter { call in
                        !(handler.map { syntax.scopes[$0].contains(call) } ?? false)
                    })
                ends += helperEnds
            }
            ends.sort()
            guard
                let end = ends.filter({ token in
                    token > site.end && !(handler.map { syntax.scopes[$0].contains(token) } ?? false)
                        && (function.map { syntax.scopes[$0].contains(token) } ?? true)
                }).min()
            else { continue }
            for index in (site.end + 1)..<end {
                guard let kind = exitKind(at: index, in: syntax) else { continue }
                guard let scope = syntax.executableScope(containing: index), syntax.scopes[scope].contains(end),
                    !blockEndsFirst(before: index, ends: ends, in: syntax), !returnsTheEnd(index, end, syntax)
                else { continue }
                if kind == "try", isCaught(index, sparing: end, ends: ends, within: scope, in: syntax) { continue }
                // A `return` whose condition is about the identifier itself (`guard task != .invalid else { return }`):
                // there is nothing left to end on that path.
                if kind == "return",
                    let condition = analysis.exitCondition(of: index, within: scope),
                    analysis.mentionsVariable(binding.name, in: condition)
                {
                    continue
                }
                // Before a helper's end, a bail-out on a gone `self` (`guard let self else { return }`): the owner's
                // own teardown may end the task, which the helper does not show; not counted.
                if helperEnds.contains(end), kind == "return",
                    let condition = analysis.exitCondition(of: index, within: scope),
                    testsOnlySelf(condition, syntax)
                {
                    continue
                }
                let beginLine = syntax.tokens[site.nameToken].line
                let endLine = syntax.tokens[end].line
                if kind == "try", let line = catchLine(index, within: scope, in: syntax) {
                    hits.append(
                        RuleHit(
                            token: index,
                            message: "This `try` can throw to the `catch` on line \(line), past the end (line "
                                + "\(syntax.tokens[end].line)) of the task begun on line \(syntax.tokens[site.nameToken].line): "
                                + "it runs to expiry; end it in the `catch` too, or use withBackgroundTask."
                        )
                    )
                    continue
                }
                let name = leftCode(scope, exit: index, in: analysis)
                hits.append(
                    RuleHit(
                        token: index,
                        message: "This `\(kind)`\(name) between the begin (line \(beginLine)) and the end (line "
                            + "\(endLine)) without ending the task: it runs to expiry; end it first, or use withBackgroundTask."
                    )
                )
            }
        }
        return hits
    }

    /// `return { … end … }`, `return ^{ … }`: the exit hands the end to the caller, it does not skip it.
    private static func returnsTheEnd(_ exit: Int, _ end: Int, _ syntax: SourceSyntax) -> Bool {
        guard syntax.tokens[exit].isIdentifier("return") else { return false }
        var next = exit + 1
        if syntax.token(next)?.is("^") == true { next += 1 }
        if syntax.token(next)?.is("(") == true, let close = syntax.partner(of: next) { next = close + 1 }
        guard syntax.token(next)?.is("{") == true, let closure = syntax.scope(openedAt: next) else { return false }
        return syntax.scopes[closure].contains(end)
    }

    /// What the exit leaves: the function, or the closure it is in (and that closure's function).
    private static func leftCode(_ scope: Int, exit index: Int, in analysis: FileAnalysis) -> String {
        let syntax = analysis.syntax
        let function = analysis.functionName(at: index)
        guard syntax.scopes[scope].kind == .closure else {
            return function.map { " leaves `\($0)`" } ?? " leaves this code"
        }
        let inside = function.map { " in `\($0)`" } ?? ""
        let callee = closureCallee(scope, in: syntax).map { " passed to `\($0)`" } ?? ""
        return " leaves the closure\(callee)\(inside)"
    }

    /// The function a closure is passed to, when the closure trails a call: `upload { … }`,
    /// `upload(photo) { … }`.
    private static func closureCallee(_ scope: Int, in syntax: SourceSyntax) -> String? {
        var position = syntax.scopes[scope].open - 1
        if let token = syntax.token(position), token.is(")"), let open = syntax.partner(of: position) {
            position = open - 1
        }
        guard let token = syntax.token(position), token.kind == .identifier,
            !["in", "return", "else", "do", "try", "await"].contains(token.text)
        else { return nil }
        return token.text
    }

    /// `return`, `throw`, `@throw`, or a Swift `try` that is not `try?` / `try!`.
    static func exitKind(at index: Int, in syntax: SourceSyntax) -> String? {
        let token = syntax.tokens[index]
        if token.isIdentifier("return") || token.isIdentifier("throw") { return token.text }
        if token.kind == .directive, token.text == "@throw" { return token.text }
        if syntax.isSwift, token.isIdentifier("try") {
            if let next = syntax.token(index + 1), next.kind == .operator, next.text == "?" || next.text == "!" {
                return nil
            }
            return "try"
        }
        return nil
    }

    /// The exit's own block already ended the task (`if failed { end(id); return }`); ends in closures
    /// nested in the block (the expiration handler) do not count.
    static func blockEndsFirst(before index: Int, ends: [Int], in syntax: SourceSyntax) -> Bool {
        guard let block = syntax.scope(containing: index) else { return false }
        let start = syntax.scopes[block].open
        let executable = syntax.executableScope(containing: index)
        // `ends` is in source order: look only at the ends between the block's `{` and the exit.
        var low = 0
        var high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= start { low = middle + 1 } else { high = middle }
        }
        return ends[low...].prefix { $0 < index }.contains { syntax.executableScope(containing: $0) == executable }
    }

    /// A `try` inside a `do` block of the same function or closure is caught there, and the code goes on
    /// after the `do` / `catch` to the end — unless the `do` block holds the end too: then a throw skips it, and
    /// only a `catch` that ends the task (one of `ends`) spares it.
    static func isCaught(_ index: Int, sparing end: Int, ends: [Int], within scope: Int, in syntax: SourceSyntax)
        -> Bool
    {
        var current = syntax.scope(containing: index)
        while let block = current, block != scope {
            let region = syntax.scopes[block]
            if region.kind == .control, region.name == "do" {
                guard region.contains(end) else { return true }
                return catchClauses(of: block, in: syntax).contains { clause in
                    ends.contains { syntax.scopes[clause].contains($0) }
                }
            }
            current = region.parent
        }
        return false
    }

    /// For a `try` inside a `do` block below `scope`: the line of the `catch` its error goes to.
    static func catchLine(_ index: Int, within scope: Int, in syntax: SourceSyntax) -> Int? {
        var current = syntax.scope(containing: index)
        while let block = current, block != scope {
            if syntax.scopes[block].kind == .control, syntax.scopes[block].name == "do" {
                return catchClauses(of: block, in: syntax).first.map { Int(syntax.tokens[syntax.scopes[$0].open].line) }
            }
            current = syntax.scopes[block].parent
        }
        return nil
    }

    /// The `catch` blocks that follow a `do` block.
    private static func catchClauses(of block: Int, in syntax: SourceSyntax) -> [Int] {
        let region = syntax.scopes[block]
        var clauses: [Int] = []
        var after = region.close
        let limit = region.parent.map { syntax.scopes[$0].close } ?? syntax.tokens.count
        for scope in (block + 1)..<syntax.scopes.count {
            let candidate = syntax.scopes[scope]
            if candidate.open > limit { break }
            guard candidate.parent == region.parent, candidate.open > after else { continue }
            guard candidate.kind == .control, candidate.name == "catch" else { break }
            clauses.append(scope)
            after = candidate.close
        }
        return clauses
    }
}
