/// BT007 on a concurrent queue: the expiration handler is a local block that the code also calls when the
/// work finishes (`finish()`), and the block ends the identifier inside a closure sent to a concurrent queue
/// (`dispatch_get_global_queue`, `DispatchQueue.global()`). When the task expires while the work finishes,
/// both runs of the block are on that queue at once, with no lock: both can read the live identifier before
/// either resets it, and end it twice.
extension DoubleEndRule {
    static func concurrentQueueHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        for site in analysis.begins {
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site),
                let name = LocalClosureName.name(of: handler, in: syntax),
                let function = syntax.namedFunction(containing: site.nameToken)
            else { continue }
            let region = syntax.scopes[handler]
            // Called, not only passed: `finish();`, `finish()`, outside the block itself.
            let body = syntax.scopes[function]
            let calls = ((body.open + 1)..<body.close).filter { index in
                syntax.tokens[index].isIdentifier(name) && !region.contains(index)
                    && syntax.token(index + 1)?.is("(") == true && syntax.token(index - 1)?.is(".") != true
            }
            guard let call = calls.first else { continue }
            for end in analysis.ends(of: binding) where region.contains(end.nameToken) {
                guard !analysis.threadPlaces.isLocked(end.nameToken),
                    let queue = concurrentQueue(around: end.nameToken, within: handler, syntax),
                    reported.insert(end.nameToken).inserted
                else { continue }
                hits.append(
                    RuleHit(
                        token: end.nameToken,
                        message:
                            "`\(binding.written)` is ended here on a concurrent queue (`\(queue)`), and `\(name)` runs "
                            + "both as the expiration handler and on line \(syntax.tokens[call].line): when both run, "
                            + "they can end the same identifier at once, with no lock; end it on one serial queue or "
                            + "under a lock, or use SafeBackgroundTask."
                    )
                )
            }
        }
        return hits
    }

    /// The concurrent queue a closure around `index` (below `outer`) is sent to, as written.
    private static func concurrentQueue(around index: Int, within outer: Int, _ syntax: SourceSyntax) -> String? {
        var current = syntax.scope(containing: index)
        while let scope = current, scope != outer {
            let region = syntax.scopes[scope]
            if region.kind == .closure {
                // The call's arguments before the closure, on the way back to the statement's start.
                var cursor = region.open - 1
                var steps = 0
                while cursor > syntax.scopes[outer].open, steps < 40 {
                    let token = syntax.tokens[cursor]
                    if token.is(";") || token.is("{") || token.is("}") { break }
                    if token.isIdentifier("dispatch_get_global_queue") { return "dispatch_get_global_queue" }
                    if token.isIdentifier("global"), syntax.token(cursor - 1)?.is(".") == true {
                        return "DispatchQueue.global()"
                    }
                    cursor -= 1
                    steps += 1
                }
            }
            current = region.parent
        }
        return nil
    }
}
