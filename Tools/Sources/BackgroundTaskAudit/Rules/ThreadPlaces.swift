/// Where code in a file runs, as far as the file shows: off the main thread when it is inside a
/// closure handed to an asynchronous call that is not the main queue's (`queue.async`,
/// `dispatch_async(queue, …)`, `addOperation`), inside an operation's `start` / `main`, or in a
/// function this file calls from such a closure. Code called from other files' queues is not seen.
final class ThreadPlaces {
    private let analysis: FileAnalysis
    /// The file's call index, shared by every `ThreadPlaces` of the same analysis.
    private var cache: SharedAnswers { analysis.sharedAnswers }

    private static let queueCalls: Set<String> = [
        "async", "dispatch_async", "addOperation", "addOperationWithBlock", "dispatch_group_async",
        "dispatch_barrier_async", "detached", "DispatchWorkItem",
        // URLSession runs its completion handlers on the session's delegate queue, not the main one.
        "dataTask", "uploadTask", "downloadTask",
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
        if isInBlockRunOnMain(token) { return nil }
        guard let function = syntax.namedFunction(containing: token), syntax.scopes[function].kind == .function,
            let full = syntax.scopes[function].name
        else { return nil }
        if analysis.isOperationEntryPoint(function) { return "in an operation's `\(full)`" }
        let name = String(full.prefix { $0 != ":" })
        let owner = analysis.enclosingClassName(of: function)
        if analysis.vocabulary.offMainFunctions.contains(name) {
            return "`\(name)` is called on a queue in the code base"
        }
        // `[Downloader start]` on a queue; `UploadTaskInfo(…)` on a queue runs its `init`.
        if let owner, analysis.vocabulary.offMainFunctions.contains(owner + "." + name) {
            return "`\(owner) \(name)` is called on a queue in the code base"
        }
        if name == "init", let owner, analysis.vocabulary.offMainFunctions.contains(owner) {
            return "`\(owner)` is made on a queue in the code base"
        }
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
            if region.kind == .closure {
                // Work hopped back to the main queue runs on the main thread, whatever is around it.
                if analysis.alwaysRunsOnMain(closure: scope) || targetsMainQueue(closure: scope) { return nil }
                if let call = queueCall(of: scope) { return "inside `\(call)` on a queue" }
                // Another API's completion runs where that API calls it back (AFNetworking on the main queue),
                // not where the code around it runs: only a closure run at once shares its surroundings' thread.
                if analysis.timing(ofClosure: scope) != .synchronous { return nil }
            }
            current = region.parent
        }
        return nil
    }

    /// A project's own queue runner, by name: `runOnBackgroundQueue`, `performOnQueue`, `dispatchInBackground`.
    static func isQueueRunnerName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        guard !lowered.containsASCII("main") else { return false }
        return lowered.containsASCII("backgroundqueue") || lowered.hasSuffix("onqueue")
            || lowered.hasSuffix("inbackground")
            || lowered.hasSuffix("backgroundthread")
    }

    /// Whether the closure is handed to a queue (and not the main queue's).
    func isQueueClosure(_ scope: Int) -> Bool {
        queueCall(of: scope) != nil && !targetsMainQueue(closure: scope)
    }

    /// The queue call a closure is handed to, if it is one.
    private func queueCall(of scope: Int) -> String? {
        switch analysis.timing(ofClosure: scope) {
        case .asynchronous(let call), .unknown(let call?):
            if Self.sessionTaskCalls.contains(where: { call.hasPrefix($0) }), deliversOnMainQueue(closure: scope) {
                return nil
            }
            if Self.queueCalls.contains(call) || Self.isQueueRunnerName(call) { return call }
            // Objective-C `[session dataTaskWithRequest:r completionHandler:^{ … }]`: the selector decides.
            guard !analysis.syntax.isSwift, let selector = messageSelector(around: syntax.scopes[scope].open) else {
                return nil
            }
            return ["dataTask", "uploadTask", "downloadTask"].contains { selector.hasPrefix($0) } ? selector : nil
        default:
            return nil
        }
    }

    private var syntax: SourceSyntax { analysis.syntax }

    private static let sessionTaskCalls = ["dataTask", "uploadTask", "downloadTask"]

    /// Whether the URL session whose task gets this completion delivers on the main queue: the session is made,
    /// in this file, with `delegateQueue: .main` / `OperationQueue.main` / `[NSOperationQueue mainQueue]`, either
    /// in the call's receiver itself or in the property or local the receiver names.
    private func deliversOnMainQueue(closure: Int) -> Bool {
        // The receiver's tokens: back from the closure over the call to the statement's start.
        let start = analysis.statementStart(of: syntax.scopes[closure].open)
        let receiver = start..<syntax.scopes[closure].open
        if mainDelegateQueue(in: receiver) { return true }
        // A value (not a type such as `URLSession`) named like a session, that the file made with the main queue.
        let sessions = mainQueueSessions()
        return receiver.contains { index in
            let token = syntax.tokens[index]
            return token.kind == .identifier && token.text.first?.isUppercase != true && sessions.contains(token.text)
        }
    }

    /// The names the file assigns a session made with the main delegate queue (`let session = URLSession(…,
    /// delegateQueue: .main)`), found once per file.
    private func mainQueueSessions() -> Set<String> {
        if let known = cache.mainQueueSessions { return known }
        var names: Set<String> = []
        for index in syntax.tokens.indices where syntax.tokens[index].isIdentifier("delegateQueue") {
            guard mainDelegateQueue(in: index..<(index + 1)) else { continue }
            // Back to the name assigned in this statement: `name = …` or `name: Type = …`.
            var cursor = index - 1
            var steps = 0
            while cursor > 0, steps < 48, !syntax.tokens[cursor].is(";"), !syntax.tokens[cursor].is("{") {
                if syntax.tokens[cursor].is("="), syntax.tokens[cursor].kind == .operator {
                    var name = cursor - 1
                    if syntax.token(name)?.kind != .identifier || syntax.token(name)?.text.first?.isUppercase == true,
                        let colon = ((max(0, cursor - 6))..<cursor).last(where: { syntax.tokens[$0].is(":") })
                    {
                        name = colon - 1  // `name: URLSession = …`
                    }
                    if let token = syntax.token(name), token.kind == .identifier { names.insert(token.text) }
                    break
                }
                cursor -= 1
                steps += 1
            }
        }
        cache.mainQueueSessions = names
        return names
    }

    /// `delegateQueue:` whose argument is the main queue (`.main`, `OperationQueue.main`, `[NSOperationQueue
    /// mainQueue]`), before the next argument.
    private func mainDelegateQueue(in range: Range<Int>) -> Bool {
        range.contains { index in
            guard syntax.tokens[index].isIdentifier("delegateQueue"), syntax.token(index + 1)?.is(":") == true else {
                return false
            }
            var next = index + 2
            while next < min(index + 8, syntax.tokens.count) {
                let token = syntax.tokens[next]
                if token.is(",") || token.is(")")
                    || (token.is("]") && syntax.token(next - 1)?.isIdentifier("mainQueue") != true)
                {
                    return false
                }
                if token.text == "mainQueue" || (token.text == "main" && syntax.token(next - 1)?.is(".") == true) {
                    return true
                }
                next += 1
            }
            return false
        }
    }

    /// The first selector piece of the Objective-C message whose argument holds `index`.
    private func messageSelector(around index: Int) -> String? {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < 256 {
            let token = syntax.tokens[position]
            if token.is("]") || token.is(")") || token.is("}"), let open = syntax.partner(of: position) {
                position = open - 1
                steps += 1
                continue
            }
            if token.is(";") || token.is("{") { return nil }
            if token.is("[") { break }
            position -= 1
            steps += 1
        }
        guard position >= 0, syntax.tokens[position].is("["), let close = syntax.partner(of: position) else {
            return nil
        }
        var cursor = position + 1
        while cursor < close {
            let token = syntax.tokens[cursor]
            if token.is("(") || token.is("["), let partner = syntax.partner(of: cursor) {
                cursor = partner + 1
                continue
            }
            if token.kind == .identifier, syntax.token(cursor + 1)?.is(":") == true { return token.text }
            cursor += 1
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
        if let cached = cache.callsByName[name] { return cached }
        let calls = findCalls(of: name)
        cache.callsByName[name] = calls
        return calls
    }

    private func findCalls(of name: String) -> [Int] {
        let syntax = analysis.syntax
        if cache.occurrences == nil {
            var index: [String: [Int]] = [:]
            for token in syntax.tokens.indices where syntax.tokens[token].kind == .identifier {
                index[syntax.tokens[token].text, default: []].append(token)
            }
            cache.occurrences = index
        }
        return (cache.occurrences?[name] ?? []).filter { index in
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

    /// Whether the token is inside a closure handed, with the main queue, to a call: the system's
    /// (`DispatchQueue.main.sync {`) or the project's own helper
    /// (`[HelperTools dispatchAsync:NO reentrantOnQueue:dispatch_get_main_queue() withBlock:^{`, which runs the
    /// block inline on main or synchronously there). Such code runs on the main thread whoever calls the function.
    func isInBlockRunOnMain(_ index: Int) -> Bool {
        let syntax = analysis.syntax
        var current = syntax.scope(containing: index)
        while let scope = current {
            let region = syntax.scopes[scope]
            if region.kind == .function || region.kind == .accessor { return false }
            if region.kind == .closure, targetsMainQueue(closure: scope) || analysis.alwaysRunsOnMain(closure: scope) {
                return true
            }
            current = region.parent
        }
        return false
    }

    /// `DispatchQueue.main.async {`, `dispatch_async(dispatch_get_main_queue(), ^{`, `OperationQueue.main`, or a
    /// helper named for the main thread (`executeOnMainSync:`, `runOnMainThread`, `performOnMainQueue`).
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
            // A helper named for the main thread, as the call that takes the block (`executeOnMainSync:^{`,
            // `runOnMainThread {`), not any identifier nearby (`buttonMainColor`).
            if syntax.tokens[index].kind == .identifier,
                let next = syntax.token(index + 1), next.is("(") || next.is(":") || next.is("{"),
                ["onmain", "mainthread", "mainqueue", "tomain"].contains(where: text.containsASCII)
            {
                return true
            }
            if syntax.tokens[index].is(";") || syntax.tokens[index].is("}") { break }
            index -= 1
            steps += 1
        }
        return false
    }
}
