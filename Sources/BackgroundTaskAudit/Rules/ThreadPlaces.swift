/// Where code in a file runs, as far as the file shows: off the main thread when it is inside a
/// closure handed to an asynchronous call that is not the main queue's (`queue.async`,
/// `dispatch_async(queue, …)`, `addOperation`), inside an operation's `start` / `main`, or in a
/// function this file calls from such a closure. Code called from other files' queues is not seen.
final class ThreadPlaces {
    private let analysis: FileAnalysis
    private var occurrences: [String: [Int]]?

    private static let queueCalls: Set<String> = [
        "async", "dispatch_async", "addOperation", "addOperationWithBlock", "dispatch_group_async",
        "dispatch_barrier_async", "detached",
    ]

    init(_ analysis: FileAnalysis) {
        self.analysis = analysis
    }

    /// Where the token runs off the main thread, in words for a message; `nil` when the file does not
    /// show that it does.
    ///
    /// - Parameter onlyQueueCallers: Count a function as running on a queue only when every call of it
    ///   in this file is on one (otherwise: when any is).
    func offMainPlace(of token: Int, onlyQueueCallers: Bool) -> String? {
        let syntax = analysis.syntax
        if let closure = queueClosure(around: token) { return closure }
        guard let function = syntax.namedFunction(containing: token), syntax.scopes[function].kind == .function,
            let full = syntax.scopes[function].name
        else { return nil }
        if full == "start" || full == "main", analysis.declaresOperation { return "in an operation's `\(full)`" }
        let name = String(full.prefix { $0 != ":" })
        var calls = 0
        var onQueue: String?
        for index in callsOf(name) where !syntax.scopes[function].contains(index) {
            calls += 1
            if let closure = queueClosure(around: index) {
                onQueue = onQueue ?? closure
                if !onlyQueueCallers { break }
            } else if onlyQueueCallers {
                return nil
            }
        }
        guard calls > 0, let onQueue else { return nil }
        return "`\(name)` is called \(onQueue)"
    }

    /// The asynchronous, non-main closure the token is inside, described for a message.
    func queueClosure(around index: Int) -> String? {
        let syntax = analysis.syntax
        var current = syntax.scope(containing: index)
        while let scope = current {
            let region = syntax.scopes[scope]
            if region.kind == .function || region.kind == .accessor { return nil }
            if region.kind == .closure, case .asynchronous(let call) = analysis.timing(ofClosure: scope),
                Self.queueCalls.contains(call)
            {
                // Work hopped back to the main queue runs on the main thread, whatever is around it.
                return targetsMainQueue(closure: scope) ? nil : "inside `\(call)` on a queue"
            }
            current = region.parent
        }
        return nil
    }

    /// Whether the token runs under a lock or on a serial queue it waits for: inside `@synchronized`,
    /// or a closure run synchronously (`queue.sync`, `withLock`, `…_sync`).
    func isLocked(_ index: Int) -> Bool {
        let syntax = analysis.syntax
        var current = syntax.scope(containing: index)
        while let scope = current {
            let region = syntax.scopes[scope]
            if region.kind == .function || region.kind == .accessor { return false }
            if region.kind == .control, region.name == "@synchronized" { return true }
            // `forEach`-style closures holding an end are rare; every synchronous closure counts.
            if region.kind == .closure, analysis.timing(ofClosure: scope) == .synchronous { return true }
            current = region.parent
        }
        return false
    }

    /// Calls of a same-file function on the same object: `name(`, `self.name(`, `[self name]`,
    /// `[self name:`, `name(…)` in C; not `other.name(` or `[other name]`, which are other objects'.
    private func callsOf(_ name: String) -> [Int] {
        let syntax = analysis.syntax
        if occurrences == nil {
            var index: [String: [Int]] = [:]
            for token in syntax.tokens.indices where syntax.tokens[token].kind == .identifier {
                index[syntax.tokens[token].text, default: []].append(token)
            }
            occurrences = index
        }
        return (occurrences?[name] ?? []).filter { index in
            guard let next = syntax.token(index + 1), next.is("(") || next.is("]") || next.is(":") else {
                return false
            }
            guard let previous = syntax.token(index - 1) else { return true }
            if previous.isIdentifier("func") || previous.is(")") { return false }
            if syntax.isSwift {
                return !previous.is(".") || syntax.token(index - 2)?.isIdentifier("self") == true
            }
            return next.is("(") ? !previous.is(".") && !previous.text.hasPrefix("->") : previous.isIdentifier("self")
        }
    }

    /// `DispatchQueue.main.async {`, `dispatch_async(dispatch_get_main_queue(), ^{`, `OperationQueue.main`.
    private func targetsMainQueue(closure: Int) -> Bool {
        let syntax = analysis.syntax
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
