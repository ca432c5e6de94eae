/// BT007: the same identifier ended on two paths that can both run, without a reset to invalid.
///
/// Two ends can both run when one is in the expiration handler and the other anywhere else (the
/// handler runs, then the completion ends the same identifier again), when they are in different
/// functions, or when one follows the other in the same block; the first of the two must lack a reset
/// (in different functions, either may run first). An end counts as reset when its function or
/// closure sets the variable to `.invalid`, `UIBackgroundTaskInvalid` (or a project's own constant
/// named `…Invalid`), `nil` or `0` after it, or the
/// code after the synchronous closure it is in does. Ends on the two branches of one `if`/`else`, and
/// in different closures of one function, are taken as exclusive. Resets are collected once per file,
/// so the rule stays linear in the number of ends.
enum DoubleEndRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT007",
        severity: .warning,
        summary: "Identifier ended on two paths without being reset to invalid (double end)"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        pairHits(in: analysis) + crossThreadHits(in: analysis) + copyResetHits(in: analysis)
            + sharedPropertyHits(in: analysis) + helperPairHits(in: analysis) + concurrentQueueHits(in: analysis)
            + sharedObjectHits(in: analysis) + returnedCopyHits(in: analysis)
    }

    private static func pairHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var reported: Set<Int> = []
        var hits: [RuleHit] = []
        var resets: Resets?
        /// Per identifier (name and where it lives): its ends, those not reset, and the pair found
        /// among the ends when no handler is involved.
        var cache: [String: (ends: [Int], unreset: [Int], pair: (first: Int, second: Int)??)] = [:]
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site) else { continue }
            let key =
                switch binding.storage {
                case .property: "\(binding.name) property \(binding.owner ?? "")"
                case .local(let scope): "\(binding.name) \(scope ?? -1)"
                }
            if cache[key] == nil {
                let ends = analysis.ends(of: binding).map(\.nameToken).sorted()
                var unreset: [Int] = []
                if ends.count >= 2 {
                    if resets == nil { resets = Resets(analysis) }
                    unreset = ends.filter {
                        !analysis.resetCopies.contains($0)
                            && !(resets?.isReset(after: $0, name: binding.name, in: analysis) ?? false)
                    }
                }
                cache[key] = (ends, unreset, nil)
            }
            guard let entry = cache[key], entry.ends.count >= 2 else { continue }
            let ends = entry.ends
            var pair: (first: Int, second: Int)?
            let handler = analysis.handlerScope(of: site).map { syntax.scopes[$0] }
            let handlerEnds = handler.map {
                firstIndex(in: ends, after: $0.open)..<firstIndex(in: ends, after: $0.close)
            }
            if let handler, let handlerEnds, !handlerEnds.isEmpty {
                let unresetIndex = firstIndex(in: entry.unreset, after: handler.open)
                if unresetIndex < entry.unreset.count, entry.unreset[unresetIndex] < handler.close {
                    // The handler ends without a reset: any other end can follow it.
                    let other = handlerEnds.lowerBound > 0 ? ends[0] : ends.dropFirst(handlerEnds.upperBound).first
                    if let other { pair = (entry.unreset[unresetIndex], other) }
                }
                if pair == nil {
                    let outside = Array(ends[..<handlerEnds.lowerBound] + ends[handlerEnds.upperBound...])
                    pair = pairOutsideHandler(outside, unreset: Set(entry.unreset), in: analysis)
                }
            } else if let cached = entry.pair {
                pair = cached
            } else {
                pair = pairOutsideHandler(ends, unreset: Set(entry.unreset), in: analysis)
                cache[key]?.pair = .some(pair)
            }
            guard let pair, !reported.contains(pair.second) else { continue }
            reported.insert(pair.second)
            let otherLine = syntax.tokens[pair.first].line
            hits.append(
                RuleHit(
                    token: pair.second,
                    message:
                        "`\(binding.written)` is ended here and on line \(otherLine) without a reset: the second end hits a "
                        + "stale or newer task; set it to .invalid after each end, or use SafeBackgroundTask."
                )
            )
        }
        return hits
    }

    /// The index of the first element of the sorted `tokens` that is greater than `token`.
    private static func firstIndex(in tokens: [Int], after token: Int) -> Int {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle] <= token { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Two ends outside the handler that can both run, the first of them not reset: an end without a
    /// reset and an end in another function (either may run first), or an end without a reset and a
    /// later one in the same function or closure (see ``canBothRun(_:_:in:)``).
    private static func pairOutsideHandler(_ ends: [Int], unreset: Set<Int>, in analysis: FileAnalysis)
        -> (first: Int, second: Int)?
    {
        guard ends.count >= 2, !unreset.isEmpty else { return nil }
        let syntax = analysis.syntax
        let functions = ends.map { syntax.namedFunction(containing: $0) ?? -1 }
        let scopes = ends.map { syntax.executableScope(containing: $0) ?? -1 }
        // For each end, the next end in another named function and the next in the same executable scope.
        var nextOtherFunction = Array(repeating: ends.count, count: ends.count)
        var nextSameScope = Array(repeating: ends.count, count: ends.count)
        var laterInScope: [Int: Int] = [:]
        for index in ends.indices.reversed() {
            if index + 1 < ends.count {
                nextOtherFunction[index] =
                    functions[index + 1] != functions[index] ? index + 1 : nextOtherFunction[index + 1]
            }
            nextSameScope[index] = laterInScope[scopes[index]] ?? ends.count
            laterInScope[scopes[index]] = index
        }
        var previousOtherFunction: Int?
        for (index, first) in ends.enumerated() {
            if index > 0, functions[index - 1] != functions[index] { previousOtherFunction = index - 1 }
            guard unreset.contains(first) else { continue }
            var second = nextSameScope[index]
            while second < ends.count {
                switch sequence(first, ends[second], in: analysis) {
                case .bothRun: return (first, ends[second])
                case .exclusive: second = nextSameScope[second]
                case .exitBetween: second = ends.count  // every later end is behind the exit too
                }
            }
            if nextOtherFunction[index] < ends.count { return (first, ends[nextOtherFunction[index]]) }
            if let previous = previousOtherFunction { return (ends[previous], first) }
        }
        return nil
    }

    /// The identifier's resets to invalid, by executable scope: the last one in each.
    struct Resets {
        /// Normalized name → executable scope → the last reset's `=` token.
        private var last: [String: [Int: Int]] = [:]

        init(_ analysis: FileAnalysis) {
            let syntax = analysis.syntax
            for index in syntax.tokens.indices {
                let token = syntax.tokens[index]
                guard token.kind == .operator, token.text == "=", InvalidValue.follows(index, in: syntax),
                    let scope = syntax.executableScope(containing: index),
                    let name = IdentifierBinding.normalizedName(
                        syntax, max(index - 3, syntax.scopes[scope].open + 1)..<index)
                else { continue }
                last[name, default: [:]][scope] = index
            }
            // A new begin assigned to the variable replaces the ended identifier too: "end the old
            // task, then begin a new one into the same variable".
            for site in analysis.begins {
                var equals = site.start - 1
                while let token = syntax.token(equals), token.isIdentifier("await") || token.isIdentifier("try") {
                    equals -= 1
                }
                guard let token = syntax.token(equals), token.kind == .operator, token.text == "=",
                    let scope = syntax.executableScope(containing: equals),
                    let name = IdentifierBinding.normalizedName(
                        syntax, max(equals - 3, syntax.scopes[scope].open + 1)..<equals)
                else { continue }
                last[name, default: [:]][scope] = max(last[name]?[scope] ?? equals, equals)
            }
        }

        /// Whether the function or closure around the end resets the variable after it; an end in a
        /// closure that runs synchronously (`queue.sync { … }`) is also reset by the code after the closure.
        func isReset(after end: Int, name: String, in analysis: FileAnalysis) -> Bool {
            guard let scopes = last[name] else { return false }
            let syntax = analysis.syntax
            var scope = syntax.executableScope(containing: end)
            while let current = scope {
                if let reset = scopes[current], reset > end { return true }
                guard syntax.scopes[current].kind == .closure, analysis.timing(ofClosure: current) == .synchronous
                else { return false }
                scope = syntax.executableScope(containing: syntax.scopes[current].open)
            }
            return false
        }
    }

    private enum Sequence {
        case bothRun
        /// A `return`, `throw`, `break`, `continue` or another `case` between them.
        case exitBetween
        /// The second is in an `else` or `catch` branch that does not contain the first.
        case exclusive
    }

    /// Whether the second of two ends in the same function or closure runs after the first: it follows
    /// with no exit and no branch between them. Ends in different closures of one function
    /// (`success:` / `failure:`) are never compared.
    private static func sequence(_ first: Int, _ second: Int, in analysis: FileAnalysis) -> Sequence {
        let syntax = analysis.syntax
        guard let scope = syntax.executableScope(containing: first) else { return .exclusive }
        for index in (first + 1)..<second {
            let token = syntax.tokens[index]
            let exits =
                token.isIdentifier("return") || token.isIdentifier("throw") || token.text == "@throw"
                || token.isIdentifier("break") || token.isIdentifier("continue")
            // An exit, or another `case` of the same `switch`, between the two ends.
            if (exits || token.isIdentifier("case") || token.isIdentifier("default"))
                && syntax.executableScope(containing: index) == scope
            {
                return .exitBetween
            }
        }
        // The second end in an `else` or `catch` branch that does not contain the first one.
        for block in syntax.scopeChain(from: syntax.scope(containing: second)) {
            if block == scope { break }
            let region = syntax.scopes[block]
            if region.kind == .control, region.name == "else" || region.name == "catch" || region.name == "@catch",
                !region.contains(first)
            {
                return .exclusive
            }
        }
        return .bothRun
    }
}
