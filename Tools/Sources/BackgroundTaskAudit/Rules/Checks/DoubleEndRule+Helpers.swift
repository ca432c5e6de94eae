/// BT007 through an end helper: a same-file method ends the stored identifier without resetting it
/// (`guard let id = self.task else { return }; app.endBackgroundTask(id)`), and both the expiration
/// handler and another place call it. After an expiry the handler has ended the task, and the other
/// call ends the same identifier again: a stale identifier, or — after a new begin — the newer task.
extension DoubleEndRule {
    static func helperPairHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        var resets: Resets?
        let functions = syntax.scopes.indices.filter { syntax.scopes[$0].kind == .function }
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), binding.storage == .property,
                let handler = analysis.handlerScope(of: site)
            else { continue }
            let handlerRegion = syntax.scopes[handler]
            for end in analysis.ends(of: binding) where !handlerRegion.contains(end.nameToken) {
                guard let helper = syntax.namedFunction(containing: end.nameToken),
                    syntax.scopes[helper].kind == .function, let full = syntax.scopes[helper].name,
                    analysis.deferringClosure(of: end.nameToken, within: helper) == nil
                else { continue }
                // Copy, reset, then end the copy: reset before the end.
                if analysis.resetCopies.contains(end.nameToken) { continue }
                if resets == nil { resets = Resets(analysis) }
                if resets?.isReset(after: end.nameToken, name: binding.name, in: analysis) ?? true { continue }
                let name = String(full.prefix { $0 != ":" })
                let fromHandler = analysis.helperEndCalls(in: handler, helpers: [name])
                guard let handlerCall = fromHandler.first else { continue }
                // Another call of the helper, outside the handler and the helper itself.
                let others = functions.filter { $0 != helper }.flatMap {
                    analysis.helperEndCalls(in: $0, helpers: [name])
                }.filter { !handlerRegion.contains($0) && !syntax.scopes[helper].contains($0) }
                guard let other = others.min(), reported.insert(other).inserted else { continue }
                hits.append(
                    RuleHit(
                        token: other,
                        message: "`\(name)` ends `\(binding.written)` without resetting it, and both this call and the "
                            + "expiration handler (line \(syntax.tokens[handlerCall].line)) make it: after an expiry the "
                            + "second end hits a stale or newer task; reset it in `\(name)`, or use SafeBackgroundTask."
                    )
                )
            }
        }
        return hits
    }
}
