/// BT010: a task of BackgroundTaskKit's thrown away as soon as it is begun (`_ = ScopedBackgroundTask(…)`,
/// `_ = SafeBackgroundTask.begin(…)`, or either as a statement of its own): it ends at once, before
/// the work it was meant to cover.
///
/// Swift's fix-it for a `let task = ScopedBackgroundTask(…)` that is never used again is exactly
/// `_ = ScopedBackgroundTask(…)`, so this is the shape the warning leads to.
enum DiscardedTaskRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT010",
        severity: .error,
        summary: "BackgroundTaskKit task discarded as soon as it is begun (`_ =` or an unused result)"
    )

    /// Whether a file with no raw calls still needs this rule: Swift that names a face.
    static func mayApply(to syntax: SourceSyntax) -> Bool {
        syntax.isSwift
            && syntax.tokens.contains {
                $0.isIdentifier("ScopedBackgroundTask") || $0.isIdentifier("SafeBackgroundTask")
            }
    }

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        guard syntax.isSwift else { return [] }
        var hits: [RuleHit] = []
        for index in syntax.tokens.indices {
            guard let face = face(at: index, in: syntax), isDiscarded(index, in: syntax) else { continue }
            let example =
                face == "ScopedBackgroundTask"
                ? "let task = ScopedBackgroundTask(\"Save\"); save(); task.end()"
                : "let task = SafeBackgroundTask.begin(\"Save\"); save { task.end() }"
            hits.append(
                RuleHit(
                    token: index,
                    message: "\(face) discarded as soon as it is begun: it ends before the work, which runs without "
                        + "background time; keep it until the work is done (\(example)) or use withBackgroundTask."
                ))
        }
        return hits
    }

    /// `ScopedBackgroundTask` in `ScopedBackgroundTask(`, or `SafeBackgroundTask` in
    /// `SafeBackgroundTask.begin(`.
    private static func face(at index: Int, in syntax: SourceSyntax) -> String? {
        let token = syntax.tokens[index]
        if token.isIdentifier("ScopedBackgroundTask"), syntax.token(index + 1)?.is("(") == true {
            return "ScopedBackgroundTask"
        }
        if token.isIdentifier("SafeBackgroundTask"), syntax.token(index + 1)?.is(".") == true,
            syntax.token(index + 2)?.isIdentifier("begin") == true, syntax.token(index + 3)?.is("(") == true
        {
            return "SafeBackgroundTask.begin"
        }
        return nil
    }

    /// Whether the expression starting at `index` is assigned to `_` or is a statement of its own.
    private static func isDiscarded(_ index: Int, in syntax: SourceSyntax) -> Bool {
        var previous = index - 1
        // `try`, `try?`, `await` before the expression change nothing.
        while let token = syntax.token(previous),
            token.isIdentifier("try") || token.isIdentifier("await") || token.is("?") || token.is("!")
        {
            previous -= 1
        }
        guard let before = syntax.token(previous) else { return true }  // the file's first statement
        if before.is("=") {
            // `_ = …`, `let _ = …`, `var _ = …`
            return syntax.token(previous - 1)?.isIdentifier("_") == true
        }
        if before.is("{") {
            // The only expression in braces is the value of a closure or function body, not a statement.
            return !isOnlyExpression(from: index, inBracesAt: previous, in: syntax)
        }
        if before.is("}") || before.is(";") { return true }
        // A statement of its own on a new line: the line before ended a statement (a name, a literal, a
        // closing bracket), not an operator, comma, opening bracket or keyword that continues it.
        guard before.line < syntax.tokens[index].line else { return false }
        switch before.kind {
        case .number, .string: return true
        case .identifier: return !continuingKeywords.contains(before.text)
        case .punctuation: return before.is(")") || before.is("]")
        case .operator, .directive: return false
        }
    }

    /// Whether the call starting at `index` (with its arguments and trailing closures) ends just
    /// before the partner of the `{` at `brace`.
    private static func isOnlyExpression(from index: Int, inBracesAt brace: Int, in syntax: SourceSyntax) -> Bool {
        guard let close = syntax.partner(of: brace) else { return false }
        var cursor = index
        var afterName = false  // an identifier or a bracket group ends a term: only `.` or brackets follow
        while cursor < close, let token = syntax.token(cursor) {
            if token.is("(") || token.is("{") || token.is("[") {
                guard let partner = syntax.partner(of: cursor) else { return false }
                cursor = partner + 1
                afterName = true
            } else if token.is(".") {
                cursor += 1
                afterName = false
            } else if token.kind == .identifier, !afterName {
                cursor += 1
                afterName = true
            } else {
                return false  // another statement follows
            }
        }
        return cursor == close
    }

    /// Keywords after which an expression on the next line continues the statement.
    private static let continuingKeywords: Set<String> = [
        "return", "in", "else", "throw", "case", "where", "as", "is", "let", "var", "if", "guard", "while",
        "switch", "for", "repeat", "defer", "do", "catch", "yield", "then",
    ]
}
