/// BT009: a `performExpiringActivity` block that dispatches its work asynchronously and returns.
///
/// The assertion lasts only while the block runs. A block that hands the work to
/// `DispatchQueue.async`, `Task {}`, an operation queue or a completion handler, and does not then
/// wait for it (`semaphore.wait()`, `group.wait()`, `dispatch_semaphore_wait`), lets the process be
/// suspended mid-work. Not counted: a closure in a branch that tests the block's `expired` parameter
/// (`if expired { Task { await cancel() }; return }`: cleanup, not the work), and a main-queue post
/// after synchronous work in the block that does no more than the block did before it
/// (`let r = render(); DispatchQueue.main.async { show(r) }`); a posted closure that does more is the
/// work, handed off.
enum ExpiringActivityReturnsEarlyRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT009",
        severity: .error,
        summary: "performExpiringActivity block that returns before its work is done"
    )

    private static let waits: Set<String> = [
        "wait", "dispatch_semaphore_wait", "dispatch_group_wait", "waitUntilFinished",
        "waitUntilAllOperationsAreFinished", "waitUntilDate",
    ]

    /// Calls that set up a wait rather than do work.
    private static let setUpCalls: Set<String> = [
        "DispatchSemaphore", "DispatchGroup", "dispatch_semaphore_create", "dispatch_group_create", "enter",
        "dispatch_group_enter", "print", "NSLog", "os_log",
    ]

    /// Words that are followed by `(` without being a call.
    private static let keywords: Set<String> = [
        "if", "guard", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof", "__typeof__", "case",
    ]

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        dispatchHits(in: analysis) + timedWaitHits(in: analysis)
    }

    /// A wait with a finite timeout in the block (`dispatch_semaphore_wait(s, dispatch_time(…, 30 s))`,
    /// `semaphore.wait(timeout: .now() + 30)`): when it times out the block returns, and the
    /// assertion with it, whether or not the work is done.
    private static func timedWaitHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        for site in analysis.expiringActivities {
            guard let block = analysis.handlerScope(of: site) else { continue }
            let region = syntax.scopes[block]
            for index in (region.open + 1)..<region.close where syntax.tokens[index].kind == .identifier {
                let name = syntax.tokens[index].text
                guard waits.contains(name), syntax.token(index + 1)?.is("(") == true,
                    let close = syntax.partner(of: index + 1)
                else { continue }
                let arguments = syntax.text((index + 2)..<close)
                let timed =
                    (name == "dispatch_semaphore_wait" || name == "dispatch_group_wait")
                    ? arguments.contains(",") && !arguments.contains("DISPATCH_TIME_FOREVER")
                    : arguments.hasPrefix("timeout:") || arguments.hasPrefix("wallTimeout:")
                guard timed, !arguments.contains("distantFuture") else { continue }
                hits.append(
                    RuleHit(
                        token: site.nameToken,
                        message: "The performExpiringActivity block waits with a timeout (line "
                            + "\(syntax.tokens[index].line)): when it times out the block returns and the process can "
                            + "be suspended mid-work; wait without a timeout (until expired), or use withBackgroundTask."
                    )
                )
            }
        }
        return hits
    }

    private static func dispatchHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        return analysis.expiringActivities.compactMap { site in
            guard let block = analysis.handlerScope(of: site) else { return nil }
            let region = syntax.scopes[block]
            let expired = expiredNames(of: block, in: analysis)
            // Scopes are in order of their `{`: the ones inside the block follow it.
            let inside = (block + 1)..<syntax.scopes.count
            let dispatched = inside.prefix { region.contains(syntax.scopes[$0].open) }.first { scope in
                guard syntax.scopes[scope].kind == .closure, case .asynchronous = analysis.timing(ofClosure: scope),
                    analysis.deferringClosure(of: syntax.scopes[scope].open, within: block) == nil
                else { return false }
                let open = syntax.scopes[scope].open
                let onExpiry = analysis.enclosingConditions(of: open, within: block).contains {
                    analysis.mentionsAny(expired, in: $0)
                }
                if onExpiry { return false }
                let start = analysis.statementStart(of: open)
                // A follow-up posted to main (showing the result) after the work: no more calls than the block made
                // before it. A posted closure that does more than that is the work itself, handed off.
                if postsToMainQueue(scope, from: start, in: analysis) {
                    let before = synchronousCalls(before: start, in: block, expired: expired, analysis: analysis)
                    let region = syntax.scopes[scope]
                    let posted = calls(in: (region.open + 1)..<region.close, syntax)
                    if before > 0, posted <= before { return false }
                }
                return true
            }
            guard let dispatched else { return nil }
            let after = Range(guarding: syntax.scopes[dispatched].close + 1, region.close)
            let waitsAfterwards = after.contains { index in
                let token = syntax.tokens[index]
                return token.kind == .identifier && waits.contains(token.text)
                    && syntax.executableScope(containing: index) == block
            }
            guard !waitsAfterwards else { return nil }
            let via = analysis.timing(ofClosure: dispatched).callName.map { "`\($0)`" } ?? "a closure"
            let line = syntax.tokens[syntax.scopes[dispatched].open].line
            return RuleHit(
                token: site.nameToken,
                message: "The performExpiringActivity block hands its work to \(via) (line \(line)) and returns: the "
                    + "process can be suspended mid-work; wait in the block for the work, or use withBackgroundTask."
            )
        }
    }

    /// The block's `expired` parameter: `{ expired in`, `{ (isExpired: Bool) in`, `$0`, `^(BOOL expired) {`.
    private static func expiredNames(of block: Int, in analysis: FileAnalysis) -> Set<String> {
        let syntax = analysis.syntax
        let open = syntax.scopes[block].open
        if syntax.isSwift {
            let body = analysis.bodyStart(of: block)
            guard body > open + 1, syntax.tokens[body - 1].isIdentifier("in") else { return ["$0"] }
            var names: Set<String> = []
            for index in (open + 1)..<(body - 1) where syntax.tokens[index].kind == .identifier {
                let previous = syntax.tokens[index - 1]
                guard previous.is("{") || previous.is("(") || previous.is(","), syntax.tokens[index].text != "_"
                else { continue }
                names.insert(syntax.tokens[index].text)
            }
            return names
        }
        guard let close = syntax.token(open - 1), close.is(")"), let parameters = syntax.partner(of: open - 1),
            let name = ((parameters + 1)..<(open - 1)).last(where: { syntax.tokens[$0].kind == .identifier })
        else { return [] }
        return [syntax.tokens[name].text]
    }

    /// Whether the statement from `start` to the closure posts it to the main queue:
    /// `DispatchQueue.main.async`, `OperationQueue.main.addOperation`, `dispatch_async(dispatch_get_main_queue(), …)`,
    /// `[[NSOperationQueue mainQueue] addOperationWithBlock:…]`, `Task { @MainActor in … }`.
    private static func postsToMainQueue(_ closure: Int, from start: Int, in analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        let open = syntax.scopes[closure].open
        if syntax.token(open + 1)?.is("@") == true, syntax.token(open + 2)?.isIdentifier("MainActor") == true {
            return true
        }
        return (start..<open).contains { index in
            let token = syntax.tokens[index]
            guard token.kind == .identifier else { return false }
            switch token.text {
            case "main": return syntax.token(index - 1)?.is(".") == true
            case "dispatch_get_main_queue", "mainQueue", "MainActor": return true
            default: return false
            }
        }
    }

    /// How many calls the block makes synchronously before `limit`, outside branches that test `expired` and
    /// outside nested closures (logging aside): the work itself, done before a follow-up is posted.
    private static func synchronousCalls(
        before limit: Int,
        in block: Int,
        expired: Set<String>,
        analysis: FileAnalysis
    ) -> Int {
        let syntax = analysis.syntax
        return Range(guarding: analysis.bodyStart(of: block), limit).filter { index in
            guard isCall(at: index, syntax), analysis.deferringClosure(of: index, within: block) == nil else {
                return false
            }
            let conditions = analysis.enclosingConditions(of: index, within: block)
            return !conditions.contains { analysis.mentionsAny(expired, in: $0) }
        }.count
    }

    /// How many calls `range` makes (logging aside).
    private static func calls(in range: Range<Int>, _ syntax: SourceSyntax) -> Int {
        range.filter { isCall(at: $0, syntax) }.count
    }

    /// Whether a call starts at `index`: `name(`, or an Objective-C message `[receiver name…]`; not a keyword, a
    /// wait's set-up or a log line.
    private static func isCall(at index: Int, _ syntax: SourceSyntax) -> Bool {
        let token = syntax.tokens[index]
        if token.kind == .identifier, syntax.token(index + 1)?.is("(") == true {
            let logging = ["debug", "info", "notice", "warning", "error", "log"].contains(token.text)
            return !keywords.contains(token.text) && !setUpCalls.contains(token.text) && !logging
        }
        if !syntax.isSwift, token.is("["), let previous = syntax.token(index - 1) {
            // A message, not a subscript: `[Thumbnailer renderAll]`.
            return previous.kind != .identifier && !previous.is("]") && !previous.is(")")
        }
        return false
    }
}
