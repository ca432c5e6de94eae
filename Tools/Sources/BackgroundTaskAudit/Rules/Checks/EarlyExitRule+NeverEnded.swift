/// BT008, an end that never comes on the normal path: an identifier kept in a property, instance
/// variable or global that only its own expiration handler ends (the work's completion never
/// does), or that is otherwise ended only in `dealloc` / `deinit`.
///
/// Either way the app holds its assertion for all of its background time on every run, and the end
/// depends on expiry or on the object going away. An end counts where it runs outside every
/// expiration handler: an `endBackgroundTask` of the same variable, or a call of a same-file function
/// that contains one — except the "end the old task" call just before this begin, and ends in the
/// app's return to the foreground (a safety net, not the work's end). A local counts as ended only
/// by its handler when nothing outside the handler mentions it after the begin.
extension EarlyExitRule {
    /// Where an end runs from, followed up through same-file callers.
    fileprivate enum EndContext: Hashable {
        case handler, foreground, teardown, elsewhere
    }

    static func neverEndedHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        // Handlers written in place; a local closure passed as handler may also be passed elsewhere
        // (`flush(completion: finish)`), so its ends do not count as the handler's only.
        let handlers = analysis.begins.compactMap { site -> Scope? in
            guard case .closure(let scope) = site.handler else { return nil }
            return syntax.scopes[scope]
        }
        var hits: [RuleHit] = []
        var localCounts: [String: Int]?
        for site in analysis.begins {
            guard case .closure(let handler) = site.handler, let binding = analysis.binding(of: site),
                !analysis.passesOnCallersHandler(site)
            else {
                continue
            }
            guard binding.storage == .property else {
                let mentions = mentionsOutside(binding, site: site, handler: syntax.scopes[handler], analysis)
                if mentions.isEmpty {
                    hits.append(neverEndedHit(site, "Only the expiration handler ends `\(binding.written)`"))
                } else if let shape = blockPropertyShape(mentions, handlers: handlers, analysis) {
                    hits.append(neverEndedHit(site, shape))
                }
                continue
            }
            // Handed to the caller (`return taskID`): the caller's end is not in this file's view.
            if analysis.returnOfIdentifier(site, binding) != nil { continue }
            let beginFunction = syntax.namedFunction(containing: site.nameToken)
            if localCounts == nil {
                localCounts = ProjectVocabulary.calls(in: syntax.tokens.indices, syntax).reduce(into: [:]) {
                    $0[$1.name, default: 0] += 1
                }
            }
            let counts = localCounts ?? [:]
            var contexts: Set<EndContext> = []
            let cache = CallerContexts()
            for end in analysis.ends(of: binding).map(\.nameToken) {
                contexts.formUnion(
                    context(
                        of: end,
                        handlers: handlers,
                        skipping: (beginFunction, site.start),
                        depth: 0,
                        localCounts: counts,
                        cache: cache,
                        analysis
                    )
                )
            }
            let shape: String
            if contexts.isSubset(of: [.handler]) {
                shape = "Only the expiration handler ends `\(binding.written)`"
            } else if contexts.isSubset(of: [.handler, .foreground]) {
                shape = "Only the expiration handler and the return to the foreground end `\(binding.written)`"
            } else if !contexts.contains(.elsewhere) {
                shape = "`\(binding.written)` is ended only in dealloc/deinit (and by its expiration handler)"
            } else {
                continue
            }
            hits.append(neverEndedHit(site, shape))
        }
        return hits
    }

    private static func neverEndedHit(_ site: CallSite, _ shape: String) -> RuleHit {
        RuleHit(
            token: site.nameToken,
            message: "\(shape): when the work finishes nothing ends it, so it holds the app's background time "
                + "until expiry; end it where the work completes, or use withBackgroundTask."
        )
    }

    /// Where a local is mentioned outside its handler (passed on, ended, stored, read by a block).
    private static func mentionsOutside(
        _ binding: IdentifierBinding,
        site: CallSite,
        handler: Scope,
        _ analysis: FileAnalysis
    ) -> [Int] {
        let syntax = analysis.syntax
        guard case .local(let scope) = binding.storage else { return [-1] }
        let region = scope.map { (syntax.scopes[$0].open + 1)..<syntax.scopes[$0].close } ?? 0..<syntax.tokens.count
        // Anywhere in its scope (a block declared before the begin may end it), except its
        // declaration, this assignment and the handler.
        let assignment = max(region.lowerBound, site.start - 4)...site.end
        return region.filter { index in
            let token = syntax.tokens[index]
            guard token.isIdentifier(binding.name) || token.isIdentifier(binding.written) else { return false }
            // `self.task` is a property of the same name, not this local.
            if let previous = syntax.token(index - 1), previous.is(".") || previous.text == "->" { return false }
            return index != binding.declaration && !assignment.contains(index) && !handler.contains(index)
        }
    }

    /// When every mention is inside one block stored in a property (`self.cleanup = ^{ … end … }`),
    /// and that property is called only from expiration handlers and `dealloc`/`deinit`: the shape.
    private static func blockPropertyShape(_ mentions: [Int], handlers: [Scope], _ analysis: FileAnalysis)
        -> String?
    {
        let syntax = analysis.syntax
        guard let first = mentions.first, first >= 0,
            let block = syntax.scopeChain(from: syntax.scope(containing: first)).first(where: {
                syntax.scopes[$0].kind == .closure
            }),
            mentions.allSatisfy({ syntax.scopes[block].contains($0) }),
            let property = storedBlockProperty(block, syntax)
        else { return nil }
        var contexts: Set<EndContext> = []
        for index in syntax.tokens.indices where syntax.tokens[index].kind == .identifier {
            let text = syntax.tokens[index].text
            guard text == property || text == "_" + property, syntax.token(index + 1)?.is("(") == true else { continue }
            if handlers.contains(where: { $0.contains(index) }) {
                contexts.insert(.handler)
            } else if let function = syntax.namedFunction(containing: index),
                ["dealloc", "deinit"].contains(syntax.scopes[function].name ?? "")
            {
                contexts.insert(.teardown)
            } else {
                return nil
            }
        }
        guard contexts.contains(.teardown) else { return nil }
        return "`\(property)`, the block that ends this task, is called only in dealloc/deinit (and by the expiration "
            + "handler)"
    }

    /// `self.cleanup = ^{`, `_cleanup = ^{`, `self.cleanup = {`: the property a block is stored in.
    private static func storedBlockProperty(_ block: Int, _ syntax: SourceSyntax) -> String? {
        var position = syntax.scopes[block].open - 1
        if !syntax.isSwift {
            if syntax.token(position)?.is(")") == true, let open = syntax.partner(of: position) { position = open - 1 }
            guard syntax.token(position)?.text == "^" else { return nil }
            position -= 1
        }
        guard let equals = syntax.token(position), equals.kind == .operator, equals.text == "=",
            let name = syntax.token(position - 1), name.kind == .identifier
        else { return nil }
        let member = syntax.token(position - 2)
        if member?.is(".") == true || member?.text == "->" { return String(name.text.drop { $0 == "_" }) }
        return name.text.hasPrefix("_") ? String(name.text.dropFirst()) : nil
    }

    /// Where the token runs from: inside an expiration handler, in `dealloc`/`deinit`, or elsewhere,
    /// through up to four levels of same-file callers. A call just before the begin in the begin's
    /// own function (ending the old task) counts as none. A function nobody in this file calls is
    /// called from elsewhere.
    private static func context(
        of token: Int,
        handlers: [Scope],
        skipping oldTaskEnd: (function: Int?, before: Int),
        depth: Int,
        localCounts: [String: Int],
        cache: CallerContexts,
        _ analysis: FileAnalysis
    ) -> Set<EndContext> {
        let syntax = analysis.syntax
        if handlers.contains(where: { $0.contains(token) }) { return [.handler] }
        guard let function = syntax.namedFunction(containing: token), let full = syntax.scopes[function].name else {
            return [.elsewhere]
        }
        if function == oldTaskEnd.function, token < oldTaskEnd.before, depth > 0 { return [] }
        if full == "dealloc" || full == "deinit" { return [.teardown] }
        let lowered = full.lowercased()
        if lowered.containsASCII("enterforeground") || lowered.containsASCII("becomeactive") { return [.foreground] }
        guard depth < 4, syntax.scopes[function].kind == .function else { return [.elsewhere] }
        if let known = cache.byFunction[function] { return known }
        cache.byFunction[function] = []  // a call cycle adds nothing
        let name = String(full.prefix { $0 != ":" })
        let calls = callsOf(name, outside: function, analysis)
        guard !calls.isEmpty else { return [.elsewhere] }
        // A Swift function other files can see may be called there too; any function that other
        // files read by the audit do call is.
        let calledElsewhere = (analysis.vocabulary.callCounts[name] ?? 0) > (localCounts[name] ?? 0)
        var contexts: Set<EndContext> = isFileInternal(function, syntax) && !calledElsewhere ? [] : [.elsewhere]
        for call in calls {
            contexts.formUnion(
                context(
                    of: call,
                    handlers: handlers,
                    skipping: oldTaskEnd,
                    depth: depth + 1,
                    localCounts: localCounts,
                    cache: cache,
                    analysis
                )
            )
            if contexts.contains(.elsewhere) { break }
        }
        cache.byFunction[function] = contexts
        return contexts
    }

    /// Where each function's callers run from, for one begin (the "end the old task" exception
    /// depends on the begin).
    final class CallerContexts {
        fileprivate var byFunction: [Int: Set<EndContext>] = [:]
    }

    /// Whether only this file can call the function: Swift `private` / `fileprivate`; Objective-C
    /// methods are taken as file-internal (a blind spot: one also called from other files).
    private static func isFileInternal(_ function: Int, _ syntax: SourceSyntax) -> Bool {
        guard syntax.isSwift else { return true }
        var position = syntax.scopes[function].open - 1
        var steps = 0
        while position >= 0, steps < 256, !syntax.tokens[position].isIdentifier("func") {
            if syntax.tokens[position].is("}") || syntax.tokens[position].is("{") { return false }
            position -= 1
            steps += 1
        }
        guard position >= 0, syntax.tokens[position].isIdentifier("func") else { return false }
        let line = syntax.tokens[position].line
        var modifier = position - 1
        while modifier >= 0, syntax.tokens[modifier].line == line {
            if syntax.tokens[modifier].isIdentifier("private") || syntax.tokens[modifier].isIdentifier("fileprivate") {
                return true
            }
            modifier -= 1
        }
        return false
    }

    /// Calls of a same-file function outside its own body.
    private static func callsOf(_ name: String, outside function: Int, _ analysis: FileAnalysis) -> [Int] {
        let syntax = analysis.syntax
        var calls: [Int] = []
        for scope in syntax.scopes.indices where syntax.scopes[scope].kind == .function && scope != function {
            // Top-level functions only: nested scopes are searched through their function.
            guard syntax.scopes[scope].parent.map({ syntax.scopes[$0].kind == .type }) ?? true else { continue }
            calls += analysis.helperEndCalls(in: scope, helpers: [name])
        }
        return calls
    }
}
