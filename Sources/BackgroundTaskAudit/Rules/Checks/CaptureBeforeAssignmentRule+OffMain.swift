/// BT006, off the main thread: the begin runs on a queue, and the identifier is stored only after
/// `beginBackgroundTask` returns, while the handler — on the main thread — reads it.
///
/// When background time is already exhausted iOS calls the handler at once, on the main thread,
/// while the queue is still inside the begin call: the handler reads the old value (invalid, or the
/// previous task's), ends nothing or the wrong task, and the new task leaks.
///
/// "On a queue" is what the file shows: the begin is inside a closure handed to an asynchronous
/// call that is not the main queue's (`queue.async`, `dispatch_async(queue, …)`, `addOperation`),
/// inside an operation's `start` / `main`, or in a function that this file calls only from such a
/// closure. A begin in a function called from other files' queues is not seen.
extension CaptureBeforeAssignmentRule {
    static func offMainHits(in analysis: FileAnalysis) -> [RuleHit] {
        var hits: [RuleHit] = []
        var occurrences: [String: [Int]]?
        for site in analysis.begins {
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site),
                readsIdentifier(binding, in: handler, analysis),
                let queue = offMainPlace(of: site, in: analysis, occurrences: &occurrences)
            else { continue }
            hits.append(
                RuleHit(
                    token: site.nameToken,
                    message: "Begun off the main thread (\(queue)) and stored in `\(binding.written)` only after "
                        + "the call returns, while the handler reads it on the main thread: with little time left "
                        + "the handler runs first, ends the old value and the new task leaks until "
                        + "\(RuleText.terminated). Begin on the main thread, or use SafeBackgroundTask, whose "
                        + "handler never needs the identifier."
                )
            )
        }
        return hits
    }

    /// Whether the handler reads the variable the begin's result goes to (`task`, `self.task`, `_task`).
    private static func readsIdentifier(_ binding: IdentifierBinding, in handler: Int, _ analysis: FileAnalysis) -> Bool
    {
        let syntax = analysis.syntax
        let region = syntax.scopes[handler]
        return ((region.open + 1)..<region.close).contains { index in
            let token = syntax.tokens[index]
            return token.kind == .identifier && token.text.drop { $0 == "_" } == binding.name
        }
    }

    /// Where the begin runs off the main thread, in words for the message; `nil` when the file does
    /// not show that it does.
    private static func offMainPlace(
        of site: CallSite,
        in analysis: FileAnalysis,
        occurrences: inout [String: [Int]]?
    ) -> String? {
        let syntax = analysis.syntax
        if let closure = backgroundClosure(around: site.nameToken, in: analysis) { return closure }
        guard let function = syntax.namedFunction(containing: site.nameToken),
            syntax.scopes[function].kind == .function, let full = syntax.scopes[function].name
        else { return nil }
        if full == "start" || full == "main", analysis.declaresOperation { return "in an operation's `\(full)`" }
        // A same-file function called only from closures on a queue.
        let name = String(full.prefix { $0 != ":" })
        var calls = 0
        var onQueue: String?
        if occurrences == nil {
            var index: [String: [Int]] = [:]
            for token in syntax.tokens.indices where syntax.tokens[token].kind == .identifier {
                index[syntax.tokens[token].text, default: []].append(token)
            }
            occurrences = index
        }
        for index in occurrences?[name] ?? [] {
            guard index != syntax.scopes[function].open, !syntax.scopes[function].contains(index),
                let next = syntax.token(index + 1), next.is("(") || next.is("]") || next.is(":"),
                syntax.token(index - 1)?.isIdentifier("func") != true,
                syntax.token(index - 1)?.is(")") != true
            else { continue }
            calls += 1
            guard let closure = backgroundClosure(around: index, in: analysis) else { return nil }
            onQueue = onQueue ?? closure
        }
        guard calls > 0, let onQueue else { return nil }
        return "`\(name)` is called \(onQueue)"
    }

    /// The asynchronous, non-main closure the token is inside, described for the message.
    private static func backgroundClosure(around index: Int, in analysis: FileAnalysis) -> String? {
        let syntax = analysis.syntax
        var current = syntax.scope(containing: index)
        while let scope = current {
            let region = syntax.scopes[scope]
            if region.kind == .function || region.kind == .accessor { return nil }
            if region.kind == .closure, case .asynchronous(let call) = analysis.timing(ofClosure: scope),
                [
                    "async", "dispatch_async", "addOperation", "addOperationWithBlock", "dispatch_group_async",
                    "dispatch_barrier_async", "detached",
                ].contains(call)
            {
                // Work hopped back to the main queue runs on the main thread, whatever is around it.
                return targetsMainQueue(closure: scope, in: syntax) ? nil : "inside `\(call)` on a queue"
            }
            current = region.parent
        }
        return nil
    }

    /// `DispatchQueue.main.async {`, `dispatch_async(dispatch_get_main_queue(), ^{`, `OperationQueue.main`.
    private static func targetsMainQueue(closure: Int, in syntax: SourceSyntax) -> Bool {
        let open = syntax.scopes[closure].open
        let line = syntax.tokens[open].line
        var index = open - 1
        var steps = 0
        while index >= 0, steps < 40, syntax.tokens[index].line >= line - 1 {
            let text = syntax.tokens[index].text
            if text == "main" || text == "dispatch_get_main_queue" || text == "mainQueue" || text == "MainActor" {
                return true
            }
            if syntax.tokens[index].is(";") || syntax.tokens[index].is("}") { break }
            index -= 1
            steps += 1
        }
        return false
    }
}
