/// BT004: an expiration handler that does not end the task before it returns.
///
/// Three shapes: no end at all (directly or through a same-file helper such as `finishTask()`);
/// every end inside a closure that runs later (`DispatchQueue.main.async`, `Task {}`, a completion
/// handler, or any closure not known to run synchronously); or every end behind a `[weak self]` /
/// `__weak` reference that can bail out: `self?.`, `[weakSelf …]`, an early `return` whose condition
/// tests the weak name or a strong alias of it (`guard let self else { return }`, `if (!sself) return;`),
/// or an `if` around the end that does (`if let self { … }`, `if (sself) { … }`). A `return` whose
/// condition is about something else (`guard task != .invalid else { return }`) does not count.
enum LateEndRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT004",
        severity: .error,
        summary: "Expiration handler that does not end the task synchronously"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let helpers = analysis.functionsThatEnd
        return analysis.begins.compactMap { site in
            guard let handler = analysis.handlerScope(of: site), !analysis.isEmptyClosure(handler),
                !analysis.passesOnCallersHandler(site)
            else { return nil }
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
            // A same-file method the handler calls that ends the task only later (`end()` posting to a queue).
            if let (helper, later) = laterEndingHelper(calledIn: handler, analysis) {
                let via = later.timing.callName.map { "inside `\($0)`" } ?? "inside a closure"
                let line = syntax.tokens[syntax.scopes[later.scope].open].line
                return RuleHit(
                    token: site.nameToken,
                    message:
                        "The expiration handler ends the task only later, through `\(helper)`, \(via) (line \(line)): "
                        + "it must end before returning, or iOS kills the app (0x8badf00d); end it synchronously, or use "
                        + "SafeBackgroundTask."
                )
            }
            return RuleHit(
                token: site.nameToken,
                message:
                    "The expiration handler never ends the task: on expiry iOS kills the app (0x8badf00d); end it synchronously "
                    + "in the handler, or use SafeBackgroundTask."
            )
        }
        var synchronous: [Int] = []
        var deferred: (token: Int, timing: ClosureTiming)?
        for token in endTokens.sorted() {
            if let later = deferral(of: token, within: handler, analysis) {
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
                message:
                    "The expiration handler ends the task only later, \(via)\(line): it must end before returning, or "
                    + "iOS kills the app (0x8badf00d); end it synchronously, or use SafeBackgroundTask."
            )
        }
        let weakNames = analysis.weakCaptures(of: handler).union(
            analysis.weakVariables(around: site.nameToken).filter {
                analysis.mentions($0, in: (region.open + 1)..<region.close)
            }
        )
        let guarded = withStrongAliases(weakNames, handler: handler, in: analysis)
        if let condition = oneBranchCondition(site, ends: synchronous, handler: handler, weak: guarded, analysis) {
            return RuleHit(
                token: site.nameToken,
                message: "The expiration handler ends the task only when `\(condition)`: otherwise, on expiry, "
                    + "iOS kills the app (0x8badf00d); end it on every path, or use SafeBackgroundTask."
            )
        }
        // A weak reference to the app delegate or a singleton (`self`, `weakSelf`) is never nil while the app runs;
        // one to an owner whose `deinit` / `dealloc` ends the task is nil only once the task has been ended.
        let onlySelf = weakNames.allSatisfy(SourceSyntax.namesSelf)
        // A handler that also captures `self` strongly (`[self.lock …]` next to `weakSelf`) keeps the object alive
        // while it runs: the weak reference cannot be nil there.
        let capturesSelfStrongly =
            !weakNames.contains("self")
            && ((region.open + 1)..<region.close).contains { index in
                // Not `typeof(self) me = weakSelf;`, which names the type and captures nothing.
                syntax.tokens[index].isIdentifier("self")
                    && !(syntax.token(index - 1)?.is("(") == true
                        && ["typeof", "__typeof", "__typeof__"].contains(syntax.token(index - 2)?.text ?? ""))
            }
        guard !weakNames.isEmpty,
            !(onlySelf
                && (syntax.isInProcessLifetimeOwner(site.nameToken) || analysis.endsTaskWhenOwnerGoes
                    || analysis.isPerCallOwner(site, endedByCreator: true) || capturesSelfStrongly))
        else { return nil }
        let bailsOut = synchronous.allSatisfy {
            canBailOut(before: $0, handler: handler, weakNames: guarded, ends: synchronous, in: analysis)
        }
        guard bailsOut else { return nil }
        let shape = syntax.isSwift ? "[weak self]" : "a __weak reference"
        return RuleHit(
            token: site.nameToken,
            message: "The expiration handler ends the task only while \(shape) is alive: once the owner is gone, on "
                + "expiry iOS kills the app (0x8badf00d); end it unconditionally, or use SafeBackgroundTask."
        )
    }

    /// A same-file function the handler calls on its own object whose end of a task is inside a closure that runs
    /// later, and that closure.
    private static func laterEndingHelper(calledIn handler: Int, _ analysis: FileAnalysis)
        -> (String, (scope: Int, timing: ClosureTiming))?
    {
        let syntax = analysis.syntax
        var enders: Set<String> = []
        var laterEnds: [String: (scope: Int, timing: ClosureTiming)] = [:]
        for end in analysis.endCalls {
            guard let function = syntax.namedFunction(containing: end.nameToken),
                syntax.scopes[function].kind == .function, let full = syntax.scopes[function].name,
                let later = analysis.deferringClosure(of: end.nameToken, within: function)
            else { continue }
            let name = String(full.prefix { $0 != ":" })
            enders.insert(name)
            laterEnds[name] = laterEnds[name] ?? later
        }
        guard let call = analysis.helperEndCalls(in: handler, helpers: enders).first else { return nil }
        let name = syntax.tokens[call].text
        return laterEnds[name].map { (name, $0) }
    }

    /// The closure that makes the end at `token` run after the handler returns, if any; a block handed to a
    /// project's helper that runs it inline on the main thread (where the handler is) does not.
    private static func deferral(of token: Int, within handler: Int, _ analysis: FileAnalysis)
        -> (scope: Int, timing: ClosureTiming)?
    {
        var from = token
        while let later = analysis.deferringClosure(of: from, within: handler) {
            guard analysis.syntax.scopes[later.scope].kind == .closure, analysis.runsInlineOnMain(closure: later.scope)
            else { return later }
            from = analysis.syntax.scopes[later.scope].open
        }
        return nil
    }

    /// Whether the end at `token` is skipped when a weak reference is nil. `weakNames` holds the weak
    /// names and the strong aliases assigned from them (`sself`, `strongSelf`, `me`).
    private static func canBailOut(
        before token: Int,
        handler: Int,
        weakNames: Set<String>,
        ends: [Int],
        in analysis: FileAnalysis
    ) -> Bool {
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
        // An early `return` before the end whose condition tests the weak reference or an alias:
        // `guard let self else { return }`, `if (!me) return;`. `guard task != .invalid` does not count,
        // nor a branch that ends the task before it returns (`guard let self else { end(task); return }`).
        for index in (region.open + 1)..<token where syntax.tokens[index].isIdentifier("return") {
            guard syntax.executableScope(containing: index) == handler,
                let condition = analysis.decidingCondition(ofStatementAt: index, within: handler)
            else { continue }
            if let branch = syntax.scope(containing: index), branch != handler,
                ends.contains(where: { $0 < index && syntax.scopes[branch].contains($0) })
            {
                continue
            }
            if analysis.mentionsAny(weakNames, in: condition) { return true }
        }
        // The end inside `if let self { … }` / `if (sself) { … }`.
        return analysis.enclosingConditions(of: token, within: handler).contains {
            analysis.mentionsAny(weakNames, in: $0)
        }
    }

    /// The condition that every synchronous end is behind, when each is inside an `if` whose
    /// condition is about something other than the task itself (`if task != .invalid` is fine) or a
    /// weak reference (checked separately), and none is in an `else` branch.
    private static func oneBranchCondition(
        _ site: CallSite,
        ends: [Int],
        handler: Int,
        weak: Set<String>,
        _ analysis: FileAnalysis
    ) -> String? {
        let syntax = analysis.syntax
        let identifier = analysis.binding(of: site)?.name
        var found: Range<Int>?
        for end in ends {
            let inElse = syntax.scopeChain(from: syntax.scope(containing: end)).contains { scope in
                syntax.scope(scope, isWithin: handler) && scope != handler && syntax.scopes[scope].kind == .control
                    && syntax.scopes[scope].name == "else"
            }
            guard !inElse else { return nil }
            let conditions = analysis.enclosingConditions(of: end, within: handler).filter { condition in
                let aboutTask = identifier.map { analysis.mentionsVariable($0, in: condition) } ?? false
                return !aboutTask && !analysis.mentionsAny(weak, in: condition)
            }
            guard let condition = conditions.first else { return nil }
            found = found ?? condition
        }
        guard let found else { return nil }
        let text = syntax.spacedText(found).trimmingCharacters(in: ["(", ")"])
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    /// The weak names plus the names the handler assigns from them:
    /// `guard let strongSelf = self`, `__strong __typeof(wself) sself = wself;`, `typeof(self) me = weakSelf;`.
    private static func withStrongAliases(_ weakNames: Set<String>, handler: Int, in analysis: FileAnalysis)
        -> Set<String>
    {
        let syntax = analysis.syntax
        let region = syntax.scopes[handler]
        var names = weakNames
        var index = region.open + 1
        while index + 1 < region.close {
            defer { index += 1 }
            let assignment = syntax.tokens[index]
            guard assignment.kind == .operator, assignment.text == "=",
                let target = syntax.token(index - 1), target.kind == .identifier,
                let source = syntax.token(index + 1), source.kind == .identifier, names.contains(source.text),
                syntax.executableScope(containing: index) == handler
            else { continue }
            // The whole right-hand side is the weak name: `= self else`, `= wself;`, `= self {`, `= self,`.
            if let after = syntax.token(index + 2) {
                let ends =
                    after.is(";") || after.is(",") || after.is("{") || after.is(")") || after.isIdentifier("else")
                    || (syntax.isSwift && after.line > source.line)
                guard ends else { continue }
            }
            names.insert(target.text)
        }
        return names
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
