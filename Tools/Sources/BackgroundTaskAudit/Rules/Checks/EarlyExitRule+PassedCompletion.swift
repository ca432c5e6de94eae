/// BT008 in a function handed the completion that ends the task: the begin's function passes a local
/// closure or block that ends the identifier (`finishTask`, often the expiration handler too) to a
/// same-file method (`[self persistWithCompletion:finishTask]`), and that method returns before it
/// calls the parameter (`if (!profile) return;` … `completion();`). On that path nothing ends the task
/// until it expires.
///
/// One call deep, same file; a `return` whose condition tests the parameter itself (`if (!completion)
/// return;`) or whose block calls it first does not count.
extension EarlyExitRule {
    static func passedCompletionHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site),
                let beginFunction = syntax.namedFunction(containing: site.nameToken)
            else { continue }
            let region = syntax.scopes[beginFunction]
            let ends = analysis.ends(of: binding).map(\.nameToken)
            // The local closures of the begin's function that end the identifier.
            let enders = Set(
                analysis.localClosures.compactMap { name, closures -> String? in
                    closures.contains { closure in
                        region.contains(syntax.scopes[closure].open)
                            && ends.contains { syntax.scopes[closure].contains($0) }
                    } ? name : nil
                })
            guard !enders.isEmpty else { continue }
            for call in ProjectVocabulary.calls(in: (region.open + 1)..<region.close, syntax) {
                guard let targets = analysis.functionScopes(named: call.name), passes(enders, at: call.token, syntax)
                else {
                    continue
                }
                for target in targets where target != beginFunction {
                    guard let (parameter, invocation) = calledParameter(of: target, syntax) else { continue }
                    let scope = syntax.executableScope(containing: invocation) ?? target
                    let open = syntax.scopes[scope].open
                    for index in (open + 1)..<invocation where syntax.tokens[index].isIdentifier("return") {
                        guard syntax.executableScope(containing: index) == scope, !reported.contains(index),
                            !callsFirst(parameter, before: index, syntax)
                        else { continue }
                        if let condition = analysis.decidingCondition(ofStatementAt: index, within: scope),
                            analysis.mentions(parameter, in: condition)
                        {
                            continue
                        }
                        reported.insert(index)
                        hits.append(
                            RuleHit(
                                token: index,
                                message: "This `return` leaves `\(call.name)` before it calls `\(parameter)` (line "
                                    + "\(syntax.tokens[invocation].line)), the completion that ends `\(binding.written)` "
                                    + "begun on line \(syntax.tokens[site.nameToken].line): on this path the task runs to "
                                    + "expiry; call it before returning, or use withBackgroundTask."
                            )
                        )
                    }
                }
            }
        }
        return hits
    }

    /// Whether the call at `token` passes one of `names` as an argument: in its parentheses (Swift, C) or in its
    /// Objective-C message, up to the closing `]`.
    private static func passes(_ names: Set<String>, at token: Int, _ syntax: SourceSyntax) -> Bool {
        var range = token..<token
        if syntax.token(token + 1)?.is("(") == true, let close = syntax.partner(of: token + 1) {
            range = (token + 2)..<close
        } else if !syntax.isSwift {
            var cursor = token + 1
            var depth = 0
            while cursor < syntax.tokens.count {
                let current = syntax.tokens[cursor]
                if current.is("[") || current.is("(") || current.is("{") { depth += 1 }
                if current.is("]") || current.is(")") || current.is("}") {
                    if depth == 0 { break }
                    depth -= 1
                }
                if current.is(";") { break }
                cursor += 1
            }
            range = (token + 1)..<cursor
        }
        return range.contains { index in
            names.contains(syntax.tokens[index].text) && syntax.token(index + 1)?.is("(") != true
        }
    }

    /// The first parameter of `function` that its body calls (`completion()`, `completion?()`), and that call.
    private static func calledParameter(of function: Int, _ syntax: SourceSyntax) -> (String, Int)? {
        guard let parameters = ForwardedArguments(syntax: syntax).signature(of: function)?.parameters,
            !parameters.isEmpty
        else { return nil }
        let region = syntax.scopes[function]
        for index in (region.open + 1)..<region.close where parameters.contains(syntax.tokens[index].text) {
            var next = index + 1
            if let token = syntax.token(next), token.kind == .operator, token.text == "?" { next += 1 }
            if syntax.token(next)?.is("(") == true, syntax.token(index - 1)?.is(".") != true {
                return (syntax.tokens[index].text, index)
            }
        }
        return nil
    }

    /// Whether the block around the `return` calls `parameter` before it.
    private static func callsFirst(_ parameter: String, before exit: Int, _ syntax: SourceSyntax) -> Bool {
        guard let block = syntax.scope(containing: exit) else { return false }
        return ((syntax.scopes[block].open + 1)..<exit).contains { index in
            syntax.tokens[index].isIdentifier(parameter) && syntax.token(index + 1)?.is("(") == true
        }
    }
}
