/// BT007, the wrong reset: the handler ends its own local copy of the identifier but resets the
/// property the copy was stored in, which by then may hold a newer task's identifier.
///
/// ```objc
/// __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:^{
///     [app endBackgroundTask:task];
///     self.task = UIBackgroundTaskInvalid;   // may wipe out the next task's identifier
/// }];
/// self.task = task;
/// ```
extension DoubleEndRule {
    static func copyResetHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard case .closure(let handler) = site.handler, let binding = analysis.binding(of: site),
                case .local = binding.storage,
                let copy = StoredIdentifierRule.propertyCopy(of: binding, after: site, in: analysis)
            else { continue }
            let region = syntax.scopes[handler]
            let property = copy.split(whereSeparator: { $0 == "." || $0 == ">" }).last.map(String.init) ?? copy
            let propertyName = String(property.drop { $0 == "_" })
            let handlerEnds = analysis.endCalls.filter { region.contains($0.nameToken) }
            let endsLocal = handlerEnds.contains { end in
                end.endArgument.flatMap { IdentifierBinding.normalizedName(syntax, $0) } == binding.name
            }
            let endsProperty = handlerEnds.contains { end in
                guard let argument = end.endArgument else { return false }
                return syntax.text(argument).contains(".") || syntax.text(argument).contains("->")
                    ? IdentifierBinding.normalizedName(syntax, argument) == propertyName : false
            }
            guard endsLocal, !endsProperty, let reset = propertyReset(of: propertyName, in: region, syntax) else {
                continue
            }
            hits.append(
                RuleHit(
                    token: reset,
                    message:
                        "The handler ends its copy `\(binding.written)` but resets `\(copy)`, which may hold a newer "
                        + "task by then: that task can no longer be ended; reset only what it ended, or use BackgroundTaskManager."
                )
            )
        }
        return hits
    }

    /// The `=` of `self.task = UIBackgroundTaskInvalid` (or `_task = .invalid`, a project's `…Invalid`).
    private static func propertyReset(of name: String, in region: Scope, _ syntax: SourceSyntax) -> Int? {
        for index in (region.open + 1)..<region.close {
            let token = syntax.tokens[index]
            guard token.kind == .operator, token.text == "=", InvalidValue.follows(index, in: syntax), index >= 2
            else { continue }
            let target = syntax.tokens[index - 1]
            let member = syntax.tokens[index - 2]
            let isMember = member.is(".") || member.text == "->" || target.text.hasPrefix("_")
            if isMember, target.kind == .identifier, target.text.drop(while: { $0 == "_" }) == name { return index }
        }
        return nil
    }
}
