/// BT004: an expiration handler that does not end the task before it returns.
///
/// Three shapes: no end at all (directly or through a same-file helper such as `finishTask()`);
/// every end inside a closure that runs later (`DispatchQueue.main.async`, `Task {}`, a completion
/// handler, or any closure not known to run synchronously); or every end behind a `[weak self]` /
/// `__weak` reference that can bail out (`guard let self else { return }`, `self?.`, `[weakSelf …]`).
enum LateEndRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT004",
        severity: .error,
        summary: "Expiration handler that does not end the task synchronously"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let helpers = analysis.functionsThatEnd
        return analysis.begins.compactMap { site in
            guard let handler = analysis.handlerScope(of: site), !analysis.isEmptyClosure(handler) else { return nil }
            return check(site, handler: handler, helpers: helpers, in: analysis)
        }
    }

    private static func check(_ site: CallSite, handler: Int, helpers: Set<String>, in analysis: FileAnalysis)
        -> RuleHit?
    {
        let syntax = analysis.syntax
        let region = syntax.scopes[handler]
        let endTokens =
            analysis.endCalls.filter { region.contains($0.nameToken) }.map(\.nameToken)
            + analysis.helperEndCalls(in: handler, helpers: helpers)
        guard !endTokens.isEmpty else {
            return RuleHit(
                token: site.nameToken,
                message: "The expiration handler never ends the task: on expiry iOS waits for an end that never "
                    + "comes and \(RuleText.terminated). Call endBackgroundTask synchronously in the handler, or "
                    + "use SafeBackgroundTask.begin(_:onExpiration:), which runs your cleanup and then ends the "
                    + "task for you."
            )
        }
        var synchronous: [Int] = []
        var deferred: (token: Int, timing: ClosureTiming)?
        for token in endTokens.sorted() {
            if let later = analysis.deferringClosure(of: token, within: handler) {
                if deferred == nil { deferred = (token, later.timing) }
            } else {
                synchronous.append(token)
            }
        }
        guard !synchronous.isEmpty else {
            let via = deferred?.timing.callName.map { "inside `\($0)`" } ?? "inside a closure"
            let line = deferred.map { " (line \(syntax.tokens[$0.token].line))" } ?? ""
            return RuleHit(
                token: site.nameToken,
                message: "The expiration handler ends the task only later, \(via)\(line): by then the handler has "
                    + "returned, the task still counts as running and \(RuleText.terminated). End the task "
                    + "synchronously in the handler and dispatch other work afterwards, or use SafeBackgroundTask, "
                    + "which ends the task inside the system's handler."
            )
        }
        let weakNames = analysis.weakCaptures(of: handler).union(
            analysis.weakVariables(around: site.nameToken).filter {
                analysis.mentions($0, in: (region.open + 1)..<region.close)
            }
        )
        guard !weakNames.isEmpty,
            synchronous.allSatisfy({ canBailOut(before: $0, handler: handler, weakNames: weakNames, in: analysis) })
        else { return nil }
        let shape = syntax.isSwift ? "[weak self]" : "a __weak reference"
        return RuleHit(
            token: site.nameToken,
            message: "The expiration handler can return without ending the task: the end is behind \(shape) "
                + "that is nil once the owner is gone, so the task is never ended and \(RuleText.terminated). "
                + "End an identifier the handler holds strongly, unconditionally, or use SafeBackgroundTask "
                + "(capture the owner weakly in onExpiration; the task still ends)."
        )
    }

    /// Whether the end at `token` is skipped when a weak reference is nil.
    private static func canBailOut(before token: Int, handler: Int, weakNames: Set<String>, in analysis: FileAnalysis)
        -> Bool
    {
        let syntax = analysis.syntax
        let region = syntax.scopes[handler]
        // The statement around the end: `self?.finish()`, `[weakSelf finish]`, `endBackgroundTask(weakSelf.task)`.
        let start =
            syntax.isSwift
            ? ReceiverScanner(syntax: syntax).expressionStart(endingAt: token)
            : messageStart(of: token, in: syntax) ?? token
        var end = token
        while end < region.close, !syntax.tokens[end].is(";"), syntax.tokens[end].line == syntax.tokens[token].line {
            end += 1
        }
        for index in max(start, region.open + 1)..<end {
            let current = syntax.tokens[index]
            guard current.kind == .identifier, weakNames.contains(current.text) else { continue }
            if !syntax.isSwift { return true }
            if let next = syntax.token(index + 1), next.kind == .operator, next.text.hasPrefix("?") { return true }
        }
        // An early `return` in the handler before the end (`guard let self else { return }`).
        for index in (region.open + 1)..<token where syntax.tokens[index].isIdentifier("return") {
            if syntax.executableScope(containing: index) == handler { return true }
        }
        // The end inside `if let self { … }` / `if (strongSelf) { … }`.
        var current = syntax.scope(containing: token)
        while let scope = current, scope != handler {
            let block = syntax.scopes[scope]
            if block.kind == .control, block.name == "if" {
                var cursor = block.open - 1
                while cursor > region.open, !syntax.tokens[cursor].isIdentifier("if") {
                    let name = syntax.tokens[cursor].text
                    if weakNames.contains(name) || name == "self" || name == "strongSelf" { return true }
                    cursor -= 1
                }
            }
            current = block.parent
        }
        return false
    }

    /// The `[` of the Objective-C message whose selector (or argument) is at `token`.
    private static func messageStart(of token: Int, in syntax: SourceSyntax) -> Int? {
        var position = token - 1
        while position >= 0, position > token - 128 {
            let current = syntax.tokens[position]
            if current.is("]") || current.is(")"), let open = syntax.partner(of: position) {
                position = open - 1
                continue
            }
            if current.is("[") { return position }
            if current.is(";") || current.is("{") || current.is("}") { return nil }
            position -= 1
        }
        return nil
    }
}
