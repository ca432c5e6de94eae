/// BT008 on the way to an end in another function: the begin's function hands the work to a
/// same-file function (`[self uploadEventsWithLimit:0]`) that returns early — before it reaches the
/// end of the stored identifier, or the call that leads to it (`[self makeUploadRequest…]`, whose
/// completion ends the task). On that path nothing ends the task until it expires.
///
/// Looks one call deep from the begin's function, at functions of the same file, for a property,
/// instance variable or global identifier; a `return` whose condition is about the identifier
/// (`if (task == UIBackgroundTaskInvalid) return;`) or whose block ends the task first does not count.
extension EarlyExitRule {
    static func workPathHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits = earlyCompletionHits(in: analysis)
        var reported = Set(hits.map(\.token))
        let functionsByName = Dictionary(
            grouping: syntax.scopes.indices.filter {
                syntax.scopes[$0].kind == .function && syntax.scopes[$0].name != nil
            },
            by: { String((syntax.scopes[$0].name ?? "").prefix { $0 != ":" }) }
        )
        let handlers = analysis.begins.compactMap { analysis.handlerScope(of: $0) }.map { syntax.scopes[$0] }
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), binding.storage == .property,
                let beginFunction = syntax.namedFunction(containing: site.nameToken)
            else { continue }
            let ends = analysis.ends(of: binding).map(\.nameToken).filter { end in
                !handlers.contains { $0.contains(end) }
            }
            // Functions that end the identifier outside the handlers.
            var enders: Set<String> = []
            for end in ends {
                if let function = syntax.namedFunction(containing: end), let name = syntax.scopes[function].name {
                    enders.insert(String(name.prefix { $0 != ":" }))
                }
            }
            guard !enders.isEmpty else { continue }
            // And the functions that lead to them (their body, completions included, calls one), two deep.
            for _ in 0..<2 {
                for (name, functions) in functionsByName where !enders.contains(name) {
                    if functions.contains(where: { !analysis.helperEndCalls(in: $0, helpers: enders).isEmpty }) {
                        enders.insert(name)
                    }
                }
            }
            let beginName = String((syntax.scopes[beginFunction].name ?? "").prefix { $0 != ":" })
            enders.remove(beginName)
            let beginRegion = syntax.scopes[beginFunction]
            let workCalls = ProjectVocabulary.calls(in: Range(guarding: site.end + 1, beginRegion.close), syntax)
                .filter { functionsByName[$0.name] != nil && $0.name != (beginRegion.name ?? "") }
            // The begin's function's own ends and calls on the way to one: a work function that returns early
            // hands back to it, and it still reaches the end.
            let ownEnds =
                ends.filter { beginRegion.contains($0) }
                + analysis.helperEndCalls(in: beginFunction, helpers: enders).filter { call in
                    !handlers.contains { $0.contains(call) }
                }
            let work = workCalls.filter { call in !ownEnds.contains { $0 > call.token } }.map(\.name)
            for name in Set(work) {
                for function in functionsByName[name] ?? [] where function != beginFunction {
                    let region = syntax.scopes[function]
                    let targets =
                        ends.filter { region.contains($0) }
                        + analysis.helperEndCalls(in: function, helpers: enders.subtracting([name]))
                    guard let first = targets.min() else { continue }
                    for index in (region.open + 1)..<first where syntax.tokens[index].isIdentifier("return") {
                        guard !reported.contains(index), syntax.executableScope(containing: index) == function
                        else { continue }
                        if let condition = analysis.decidingCondition(ofStatementAt: index, within: function),
                            analysis.mentionsVariable(binding.name, in: condition)
                        {
                            continue
                        }
                        reported.insert(index)
                        let endLine = syntax.tokens[first].line
                        hits.append(
                            RuleHit(
                                token: index,
                                message: "This `return` leaves `\(name)` before it reaches line \(endLine), the way to "
                                    + "the end of `\(binding.written)` begun on line \(syntax.tokens[site.nameToken].line): "
                                    + "the task runs to expiry; end it before returning, or use withBackgroundTask."
                            )
                        )
                    }
                }
            }
        }
        return hits
    }

    /// A completion block declared before the begin, in the same function, that ends the
    /// identifier but can return first (`if (!strongSelf) return;` … `endBackgroundTask:`): on that
    /// path the task runs to expiry.
    private static func earlyCompletionHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site),
                let function = syntax.namedFunction(containing: site.nameToken)
            else { continue }
            for end in analysis.ends(of: binding) where end.nameToken < site.start {
                guard let block = syntax.executableScope(containing: end.nameToken), block != function,
                    syntax.scopes[block].kind == .closure, syntax.scope(block, isWithin: function),
                    let name = LocalClosureName.name(of: block, in: syntax)
                else { continue }
                let region = syntax.scopes[block]
                let ends = analysis.ends(of: binding).map(\.nameToken).sorted()
                for index in (region.open + 1)..<end.nameToken where syntax.tokens[index].isIdentifier("return") {
                    guard !reported.contains(index), syntax.executableScope(containing: index) == block,
                        !blockEndsFirst(before: index, ends: ends, in: syntax)
                    else {
                        continue
                    }
                    if let condition = analysis.decidingCondition(ofStatementAt: index, within: block),
                        analysis.mentionsVariable(binding.name, in: condition)
                            || (testsOnlySelf(condition, syntax) && syntax.isInProcessLifetimeOwner(site.nameToken))
                    {
                        // About the task; or `guard let self` in the app delegate or a singleton, never nil.
                        continue
                    }
                    reported.insert(index)
                    hits.append(
                        RuleHit(
                            token: index,
                            message: "This `return` leaves `\(name)` before it ends `\(binding.written)` (line "
                                + "\(syntax.tokens[end.nameToken].line)): on this path the task begun on line "
                                + "\(syntax.tokens[site.nameToken].line) runs to expiry; end it before returning, or use "
                                + "withBackgroundTask."
                        )
                    )
                }
            }
        }
        return hits
    }

    /// Whether a condition tests only `self` or a weak or strong alias of it (`let self`, `!strongSelf`).
    static func testsOnlySelf(_ condition: Range<Int>, _ syntax: SourceSyntax) -> Bool {
        let names = condition.filter { syntax.tokens[$0].kind == .identifier }.map { syntax.tokens[$0].text }
        let keywords: Set<String> = ["let", "var", "if", "guard", "else", "nil"]
        let selves = names.filter { !keywords.contains($0) }
        return !selves.isEmpty && selves.allSatisfy(SourceSyntax.namesSelf)
    }
}
