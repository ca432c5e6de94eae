/// BT007: the same identifier ended on two paths that can both run, without a reset to invalid.
///
/// Two ends can both run when one is in the expiration handler and the other anywhere else (the
/// handler runs, then the completion ends the same identifier again), when they are in different
/// functions or closures, or when one follows the other in the same block. An end counts as reset
/// when its function or closure also sets the variable to `.invalid`, `UIBackgroundTaskInvalid`,
/// `nil` or `0`. Ends on the two branches of one `if`/`else` are taken as exclusive.
enum DoubleEndRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT007",
        severity: .warning,
        summary: "Identifier ended on two paths without being reset to invalid (double end)"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        var reported: Set<Int> = []
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site) else { continue }
            let handler = analysis.handlerScope(of: site)
            let ends = analysis.ends(of: binding).map(\.nameToken).sorted()
            guard ends.count >= 2 else { continue }
            let unreset = ends.filter { !isReset(after: $0, name: binding.name, in: analysis) }
            let inHandler = { (token: Int) in handler.map { analysis.syntax.scopes[$0].contains(token) } ?? false }
            var pair: (first: Int, second: Int)?
            if let handlerEnd = unreset.first(where: inHandler), let other = ends.first(where: { !inHandler($0) }) {
                pair = (handlerEnd, other)
            } else {
                let outside = unreset.filter { !inHandler($0) }
                search: for (offset, first) in outside.enumerated() {
                    for second in outside.dropFirst(offset + 1) where canBothRun(first, second, in: analysis) {
                        pair = (first, second)
                        break search
                    }
                }
            }
            guard let pair, !reported.contains(pair.second) else { continue }
            reported.insert(pair.second)
            let otherLine = analysis.syntax.tokens[pair.first].line
            hits.append(
                RuleHit(
                    token: pair.second,
                    message: "`\(binding.written)` is ended here and on line \(otherLine) without being reset to "
                        + "invalid: when both paths run, the second end logs \"Can't end BackgroundTask: no "
                        + "background task exists with identifier …\" or ends a newer task that reused the variable, "
                        + "which then loses its protection. Set it to .invalid (UIBackgroundTaskInvalid) right after "
                        + "each end, or use SafeBackgroundTask, whose end() is idempotent, or ScopedBackgroundTask, "
                        + "which cannot be ended twice."
                )
            )
        }
        return hits
    }

    /// Whether the function or closure around the end (not a closure nested in it) resets the variable
    /// after the end.
    private static func isReset(after end: Int, name: String, in analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        guard let scope = syntax.executableScope(containing: end) else { return false }
        let region = syntax.scopes[scope]
        for index in (end + 1)..<region.close {
            let token = syntax.tokens[index]
            guard token.kind == .operator, token.text == "=", syntax.executableScope(containing: index) == scope,
                IdentifierBinding.normalizedName(syntax, max(index - 3, region.open + 1)..<index) == name,
                let value = syntax.token(index + 1)
            else { continue }
            if value.isIdentifier("nil") || value.isIdentifier("UIBackgroundTaskInvalid") || value.text == "0" {
                return true
            }
            if value.is("."), syntax.token(index + 2)?.isIdentifier("invalid") == true { return true }
            if value.isIdentifier("UIBackgroundTaskIdentifier"),
                syntax.token(index + 3)?.isIdentifier("invalid") == true
            {
                return true
            }
        }
        return false
    }

    /// Two ends outside the handler both run when they are in different functions, or when the second
    /// follows the first in the same function or closure with no exit and no branch between them.
    /// Ends in different closures of one function (`success:` / `failure:`) count as exclusive.
    private static func canBothRun(_ first: Int, _ second: Int, in analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        if syntax.namedFunction(containing: first) != syntax.namedFunction(containing: second) { return true }
        guard let scope = syntax.executableScope(containing: first), syntax.executableScope(containing: second) == scope
        else { return false }
        for index in (first + 1)..<second {
            let token = syntax.tokens[index]
            let exits =
                token.isIdentifier("return") || token.isIdentifier("throw") || token.text == "@throw"
                || token.isIdentifier("break") || token.isIdentifier("continue")
            // An exit, or another `case` of the same `switch`, between the two ends.
            if (exits || token.isIdentifier("case") || token.isIdentifier("default"))
                && syntax.executableScope(containing: index) == scope
            {
                return false
            }
        }
        // The second end in an `else` or `catch` branch that does not contain the first one.
        for block in syntax.scopeChain(from: syntax.scope(containing: second)) {
            if block == scope { break }
            let region = syntax.scopes[block]
            if region.kind == .control, region.name == "else" || region.name == "catch" || region.name == "@catch",
                !region.contains(first)
            {
                return false
            }
        }
        return true
    }
}
