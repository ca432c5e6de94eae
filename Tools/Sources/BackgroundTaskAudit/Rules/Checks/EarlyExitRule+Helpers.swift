/// BT008 between a begin helper and an end helper: a method begins into a stored identifier
/// (`startBackgroundTask()`), another ends it (`endBackgroundTask()`), and a caller runs the work
/// between the two calls, in one block. A `return`, `throw` or uncaught `try` there leaves the caller
/// without reaching the end: the task runs to expiry.
///
/// Same file, calls on the object itself; a `try` inside `do` is caught, and an exit whose block
/// calls the end helper (or ends the identifier) first does not count.
extension EarlyExitRule {
    static func helperSequenceHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        let functions = syntax.scopes.indices.filter { syntax.scopes[$0].kind == .function }
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), binding.storage == .property,
                let beginFunction = syntax.namedFunction(containing: site.nameToken),
                syntax.scopes[beginFunction].kind == .function, let full = syntax.scopes[beginFunction].name
            else { continue }
            let beginName = String(full.prefix { $0 != ":" })
            let handler = analysis.handlerScope(of: site).map { syntax.scopes[$0] }
            // The functions that end the identifier outside the handler, and not the begin helper itself.
            var enders: Set<String> = []
            for end in analysis.ends(of: binding) where !(handler?.contains(end.nameToken) ?? false) {
                guard let function = syntax.namedFunction(containing: end.nameToken), function != beginFunction,
                    let name = syntax.scopes[function].name
                else { continue }
                enders.insert(String(name.prefix { $0 != ":" }))
            }
            guard !enders.isEmpty else { continue }
            for caller in functions where caller != beginFunction {
                let begins = analysis.helperEndCalls(in: caller, helpers: [beginName])
                guard !begins.isEmpty else { continue }
                let ends = analysis.helperEndCalls(in: caller, helpers: enders).sorted()
                for begin in begins {
                    // The end helper later in the same block: a straight line from begin to end. (A begin helper called
                    // on one branch and then a `return` keeps the task on purpose, for someone else to end.)
                    let block = syntax.scope(containing: begin)
                    guard let scope = syntax.executableScope(containing: begin),
                        let end = ends.first(where: { $0 > begin && syntax.scope(containing: $0) == block })
                    else { continue }
                    for index in (begin + 1)..<end {
                        guard let kind = exitKind(at: index, in: syntax), !reported.contains(index),
                            syntax.executableScope(containing: index) == scope,
                            !blockEndsFirst(before: index, ends: ends, in: syntax)
                        else { continue }
                        if kind == "try", isCaught(index, sparing: end, ends: ends, within: scope, in: syntax) {
                            continue
                        }
                        reported.insert(index)
                        let endName = syntax.tokens[end].text
                        let endLine = syntax.tokens[end].line
                        let beginLine = syntax.tokens[begin].line
                        let message: String
                        if kind == "try", let line = catchLine(index, within: scope, in: syntax) {
                            message =
                                "This `try` can throw to the `catch` on line \(line), past `\(endName)` (line \(endLine)), "
                                + "which ends `\(binding.written)` begun by `\(beginName)` (line \(beginLine)): the task runs "
                                + "to expiry; end it in the `catch` too, or use withBackgroundTask."
                        } else {
                            let function = analysis.functionName(at: index).map { "`\($0)`" } ?? "this code"
                            message =
                                "This `\(kind)` leaves \(function) between `\(beginName)` (line \(beginLine)), which begins "
                                + "`\(binding.written)`, and `\(endName)` (line \(endLine)), which ends it: the task runs to "
                                + "expiry; end it first, or use withBackgroundTask."
                        }
                        hits.append(RuleHit(token: index, message: message))
                    }
                }
            }
        }
        return hits
    }
}
