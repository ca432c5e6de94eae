/// BT007, one property shared by overlapping runs: the identifier is kept in a property that a
/// second run can fill while a completion of this run is still pending — the property can be
/// overwritten (BT005), or another function ends and resets it (the return to the foreground),
/// after which the next run begins anew — and that completion ends the property as it is when it
/// runs. If the code ran again meanwhile, that is the newer task's identifier: it is ended early,
/// and this run's task runs on to its expiry.
extension DoubleEndRule {
    static func sharedPropertyHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        guard analysis.begins.contains(where: { analysis.binding(of: $0)?.storage == .property }) else { return [] }
        let overwritable = Set(analysis.storedIdentifierHits.map(\.token))
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), binding.storage == .property,
                let function = syntax.namedFunction(containing: site.nameToken)
            else { continue }
            let endedElsewhere = analysis.ends(of: binding).contains { end in
                guard let other = syntax.namedFunction(containing: end.nameToken), other != function else {
                    return false
                }
                return !["dealloc", "deinit"].contains(syntax.scopes[other].name ?? "")
            }
            let handler = analysis.handlerScope(of: site)
            // A flag that keeps a second run out, cleared by the expiration handler: after an expiry the next
            // run begins while this run's work is still going.
            let reopened = handler.flatMap { handler in
                analysis.guardFlags(of: site, in: function).first { analysis.clearsFlag([$0], in: handler) }
            }
            guard overwritable.contains(site.nameToken) || endedElsewhere || reopened != nil else { continue }
            let region = syntax.scopes[function]
            for end in analysis.ends(of: binding) where region.contains(end.nameToken) {
                guard let completion = sharedCompletion(around: end.nameToken, handler: handler, in: function, analysis)
                else { continue }
                let meanwhile =
                    reopened.map {
                        "the expiration handler clears `\($0)`, so after an expiry the next run begins a task "
                            + "before this one ends: this ends that newer task early"
                    }
                    ?? "if this code ran again meanwhile, that is the newer task, ended early, while this run's task runs to expiry"
                hits.append(
                    RuleHit(
                        token: end.nameToken,
                        message: "This completion (\(completion)) ends `\(binding.written)` as it is when it runs: "
                            + meanwhile + "; end the identifier this run began, or use BackgroundTaskManager."
                    )
                )
                break
            }
        }
        return hits
    }

    /// The closure around the end that runs later as a completion of this run: a closure literal
    /// passed to an asynchronous call, or a local closure (the handler too) also passed elsewhere.
    private static func sharedCompletion(around token: Int, handler: Int?, in function: Int, _ analysis: FileAnalysis)
        -> String?
    {
        let syntax = analysis.syntax
        // An end the handler itself puts off is BT004's: the handler runs once, at expiry. (A handler kept in a
        // local and passed on as a completion too is still checked below.)
        if let handler, syntax.scopes[handler].contains(token), LocalClosureName.name(of: handler, in: syntax) == nil {
            return nil
        }
        for scope in syntax.scopeChain(from: syntax.scope(containing: token)) {
            if scope == function { return nil }
            guard syntax.scopes[scope].kind == .closure else { continue }
            if let name = LocalClosureName.name(of: scope, in: syntax) {
                // Passed as the handler, and passed on once more at least. Neither its declaration nor a selector
                // part or argument label of the same name (`expirationHandler:expirationHandler`) is a use.
                let region = syntax.scopes[function]
                let uses = ((region.open + 1)..<region.close).filter {
                    guard syntax.tokens[$0].isIdentifier(name), !syntax.scopes[scope].contains($0) else { return false }
                    let previous = syntax.token($0 - 1)
                    let next = syntax.token($0 + 1)
                    let declared =
                        previous?.isIdentifier("let") == true || previous?.isIdentifier("var") == true
                        || next?.is("=") == true
                    return !declared && next?.is(":") != true
                }
                // Or called only later: from a closure that runs after this function (`Task { …; done() }`).
                let calledLater = uses.contains { use in
                    syntax.scopeChain(from: syntax.scope(containing: use)).prefix { $0 != function }.contains {
                        guard syntax.scopes[$0].kind == .closure, $0 != handler,
                            case .asynchronous = analysis.timing(ofClosure: $0)
                        else { return false }
                        return true
                    }
                }
                return uses.count >= 2 || calledLater ? "`\(name)`" : nil
            }
            if scope == handler { return nil }
            if case .asynchronous(let call) = analysis.timing(ofClosure: scope) { return "passed to `\(call)`" }
        }
        return nil
    }
}
