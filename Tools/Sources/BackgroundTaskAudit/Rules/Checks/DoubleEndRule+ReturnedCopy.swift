/// BT007, a copy handed to the caller: the function begins into a property or a captured local, returns the
/// identifier to its caller (`return taskID`), and the expiration handler ends and resets only its own. After an expiry
/// the caller still holds the old value; when its work finishes it ends that stale identifier — or, after a
/// new begin reused the number, a newer task.
extension DoubleEndRule {
    static func returnedCopyHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site),
                let handler = analysis.handlerScope(of: site),
                let exit = analysis.returnOfIdentifier(site, binding)
            else { continue }
            // The handler ends the identifier (itself, or through a helper) and resets its own copy.
            let region = syntax.scopes[handler]
            let ends =
                analysis.ends(of: binding).contains { region.contains($0.nameToken) }
                || !analysis.helperEndCalls(in: handler, helpers: analysis.functionsThatEnd).isEmpty
            let resets = ((region.open + 1)..<region.close).contains { index in
                let token = syntax.tokens[index]
                return token.kind == .operator && token.text == "=" && InvalidValue.follows(index, in: syntax)
            }
            guard ends, resets || !analysis.helperEndCalls(in: handler, helpers: analysis.functionsThatEnd).isEmpty
            else {
                continue
            }
            hits.append(
                RuleHit(
                    token: exit,
                    message:
                        "This hands the caller a copy of `\(binding.written)`, while the expiration handler ends and "
                        + "resets only `\(binding.written)`: after an expiry the caller's copy is stale, and its end hits "
                        + "a stale or newer task; end through the owner (which checks and resets), or use SafeBackgroundTask."
                )
            )
        }
        return hits
    }
}
