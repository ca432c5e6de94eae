/// Everything the rules read about one file: its syntax, call sites, and answers to the questions
/// several rules ask (where is this identifier ended, does that closure run now or later).
struct FileAnalysis {
    let syntax: SourceSyntax
    let path: String
    let sites: [CallSite]
    let begins: [CallSite]
    let endCalls: [CallSite]
    let expiringActivities: [CallSite]
    let isAllowedWrapperPath: Bool
    /// What the whole code base declares: shims, and which functions run on a queue.
    private(set) var vocabulary: ProjectVocabulary
    /// Each begin's binding, by the begin's name token.
    private var bindings: [Int: IdentifierBinding]
    /// The type each end call's code belongs to, by the end's name token (where it can be told).
    private var endOwners: [Int: String] = [:]
    /// End calls by the normalized name of their argument, in source order.
    private let endsByName: [String: [CallSite]]
    /// Ends of `self.x` (never a local's) and of a bare name that a local or parameter shadows (never the
    /// property's), by name token (``EndForms``).
    private let selfMemberEnds: Set<Int>
    private let shadowedEnds: [Int: String]
    /// Answers several rules need, computed once per file.
    private var shared = SharedAnswers()

    /// The answers cached for this file.
    var sharedAnswers: SharedAnswers { shared }

    /// Where code of this file runs (its call index is built once per file, in ``sharedAnswers``).
    var threadPlaces: ThreadPlaces { ThreadPlaces(self) }

    /// BT005's hits, which BT007 reads too.
    var storedIdentifierHits: [RuleHit] {
        if let hits = shared.storedIdentifierHits { return hits }
        let hits = StoredIdentifierRule.uncachedHits(in: self)
        shared.storedIdentifierHits = hits
        return hits
    }

    /// Ends of a local copy of a property whose property was reset to invalid before the end.
    let resetCopies: Set<Int>
    /// Closures assigned to a local when declared (`let done = { … }`), by the local's name.
    let localClosures: [String: [Int]]

    init(
        syntax: SourceSyntax,
        path: String,
        isAllowedWrapperPath: Bool,
        vocabulary: ProjectVocabulary = ProjectVocabulary()
    ) {
        self.syntax = syntax
        self.path = path
        self.isAllowedWrapperPath = isAllowedWrapperPath
        self.vocabulary = vocabulary
        let sites = CallSiteFinder.callSites(in: syntax, vocabulary: vocabulary)
        self.sites = sites
        begins = sites.filter { $0.kind == .begin }
        endCalls = sites.filter { $0.kind == .end }
        expiringActivities = sites.filter { $0.kind == .expiringActivity }
        let resolver = BindingResolver(syntax: syntax)
        var bindings: [Int: IdentifierBinding] = [:]
        for begin in begins {
            bindings[begin.nameToken] = resolver.binding(of: begin)
        }
        self.bindings = bindings
        var endsByName: [String: [CallSite]] = [:]
        var resetCopies: Set<Int> = []
        for end in endCalls {
            guard let argument = end.endArgument, let name = IdentifierBinding.normalizedName(syntax, argument) else {
                continue
            }
            // "Copy, reset, then end the copy": `id = self.task; self.task = invalid; end(id)` ends the
            // property too, and is reset already.
            if argument.count == 1, let copy = CopiedIdentifier.source(of: name, endingAt: end.nameToken, in: syntax) {
                var ended = end
                ended.endArgument = argument
                endsByName[copy.property, default: []].append(ended)
                if copy.resetBeforeEnd { resetCopies.insert(end.nameToken) }
                if copy.property == name { continue }
            }
            endsByName[name, default: []].append(end)
        }
        for name in endsByName.keys { endsByName[name]?.sort { $0.nameToken < $1.nameToken } }
        self.endsByName = endsByName
        self.resetCopies = resetCopies
        (selfMemberEnds, shadowedEnds) = EndForms.classify(endCalls, in: syntax)
        var localClosures: [String: [Int]] = [:]
        if !sites.isEmpty {
            for scope in syntax.scopes.indices where syntax.scopes[scope].kind == .closure {
                if let name = LocalClosureName.name(of: scope, in: syntax) {
                    localClosures[name, default: []].append(scope)
                }
            }
        }
        self.localClosures = localClosures
        // Which type each begin and end belongs to: a property `task` of one class is not another class's.
        if !begins.isEmpty {
            let owners = TypeRanges(syntax)
            for begin in begins { self.bindings[begin.nameToken]?.owner = owners.name(at: begin.nameToken) }
            for end in endCalls { endOwners[end.nameToken] = owners.name(at: end.nameToken) }
        }
    }

    /// The same analysis, knowing more of the code base — when that cannot change its call sites
    /// (no shims, no method of its own named like UIKit's begin); `nil` otherwise.
    func knowing(_ vocabulary: ProjectVocabulary) -> FileAnalysis? {
        guard vocabulary.isEmpty else { return nil }
        var analysis = self
        analysis.vocabulary = vocabulary
        analysis.shared = SharedAnswers()
        return analysis
    }

    func binding(of site: CallSite) -> IdentifierBinding? {
        bindings[site.nameToken]
    }

    /// Whether the begin passes on a handler it was given (a parameter of the function or closure
    /// around it, as is or as `{ handler?() }`): the inside of a wrapper, whose caller's handler matters.
    func forwardsHandler(_ site: CallSite) -> Bool {
        ForwardedArguments(syntax: syntax).forwardsParameter(site.handler, at: site.nameToken)
    }

    /// The handler closure's scope: the closure or block literal passed, or the one a local constant
    /// or block variable passed by name was set to earlier in the same function
    /// (`let done = { … }; begin(expirationHandler: done)`, `dispatch_block_t done = ^{ … };`).
    func handlerScope(of site: CallSite) -> Int? {
        switch site.handler {
        case .closure(let scope):
            return scope
        case .expression(let range):
            if range.count == 1, syntax.tokens[range.lowerBound].kind == .identifier,
                let local = localClosure(named: syntax.tokens[range.lowerBound].text, before: site.nameToken)
            {
                return local
            }
            // `self.expirationHandler` (or a bare property): the closure the same function assigned to it first.
            let identifiers = range.filter { syntax.tokens[$0].kind == .identifier }
            guard let last = identifiers.last,
                identifiers.count == 1
                    || identifiers.count == 2
                        && SourceSyntax.namesSelf(syntax.tokens[identifiers[0]].text)
            else { return nil }
            return propertyClosure(named: syntax.tokens[last].text, before: site.nameToken)
        default:
            return nil
        }
    }

    /// The closure or block that the function around `index` assigned to the property `name` before it
    /// (`self.handler = { … }`, `_handler = ^{ … };`).
    private func propertyClosure(named name: String, before index: Int) -> Int? {
        guard let function = syntax.namedFunction(containing: index) else { return nil }
        let open = syntax.scopes[function].open
        var found: Int?
        for position in (open + 1)..<index where syntax.tokens[position].kind == .identifier {
            guard syntax.tokens[position].text.drop(while: { $0 == "_" }) == name.drop(while: { $0 == "_" }),
                let equals = syntax.token(position + 1), equals.kind == .operator, equals.text == "="
            else { continue }
            var brace = position + 2
            if syntax.token(brace)?.is("^") == true { brace += 1 }
            if syntax.token(brace)?.is("(") == true, let close = syntax.partner(of: brace) { brace = close + 1 }
            if syntax.token(brace)?.is("{") == true, let scope = syntax.scope(openedAt: brace),
                syntax.scopes[scope].kind == .closure
            {
                found = scope
            }
        }
        return found
    }

    /// The closure a local named `name` was set to before `index`, in a function or closure around it.
    func localClosure(named name: String, before index: Int) -> Int? {
        guard let candidates = localClosures[name] else { return nil }
        return candidates.last { closure in
            let open = syntax.scopes[closure].open
            guard open < index else { return false }
            guard let owner = syntax.scope(containing: open) else { return true }
            return syntax.scopes[owner].contains(index)
        }
    }

    /// End calls of `binding`: anywhere in the file for a property, in the declaring scope for a local — not a
    /// property's `self.task` for a local `task`, nor a shadowing local's bare `task` for the property.
    func ends(of binding: IdentifierBinding) -> [CallSite] {
        guard let named = endsByName[binding.name] else { return [] }
        guard case .local(let scope?) = binding.storage else {
            guard binding.storage == .property else { return named }
            let owner = binding.owner
            return named.filter { end in
                // Another type's property of the same name is not this one.
                if let owner, let other = endOwners[end.nameToken], other != owner { return false }
                // Only an end under its own name: a copy-reset-end (`id = self.task; …; end(id)`) is the property's.
                return shadowedEnds[end.nameToken].map { $0.drop { $0 == "_" } != binding.name } ?? true
            }
        }
        let region = syntax.scopes[scope]
        // Binary search for the first end inside the scope, then take the run inside it.
        var low = 0
        var high = named.count
        while low < high {
            let middle = (low + high) / 2
            if named[middle].nameToken <= region.open { low = middle + 1 } else { high = middle }
        }
        let inside = named[low...].prefix { $0.nameToken < region.close }
        if selfMemberEnds.isEmpty { return Array(inside) }
        return inside.filter { !selfMemberEnds.contains($0.nameToken) }
    }

    // MARK: - Closures

    /// When the closure with brace scope `scope` runs, from the call it is passed to.
    func timing(ofClosure scope: Int) -> ClosureTiming {
        let open = syntax.scopes[scope].open
        var before = open - 1
        if !syntax.isSwift {
            // `^{`, `^(BOOL expired) {`, `^void (void) {`: find the caret.
            var steps = 0
            while before >= 0, steps < 12, !syntax.tokens[before].is("^") {
                if syntax.tokens[before].is(")"), let match = syntax.partner(of: before) { before = match }
                before -= 1
                steps += 1
            }
            guard before >= 0, syntax.tokens[before].is("^") else { return .unknown(nil) }
            before -= 1
        }
        guard let previous = syntax.token(before) else { return .unknown(nil) }
        if previous.is(")"), let openParenthesis = syntax.partner(of: before), syntax.isSwift {
            return ClosureTiming(call: callName(before: openParenthesis), label: nil)  // trailing closure
        }
        if previous.kind == .identifier, syntax.isSwift {
            return ClosureTiming(call: previous.text, label: nil)  // `Task {`, `queue.async {`
        }
        if previous.is(":") {
            let label = syntax.token(before - 1).flatMap { $0.kind == .identifier ? $0.text : nil }
            let call = enclosingParenthesis(of: before).flatMap(callName(before:))
            return ClosureTiming(call: call, label: label)
        }
        if previous.is("(") || previous.is(",") {
            let call = (previous.is("(") ? before : enclosingParenthesis(of: before)).flatMap(callName(before:))
            return ClosureTiming(call: call, label: nil)
        }
        return .unknown(nil)
    }

    /// The argument label a closure is passed with: `beginBackgroundTask` in
    /// `execute(beginBackgroundTask: { … })`, `completion` in `[x run:^{ … } completion:^{ … }]`.
    func argumentLabel(ofClosure scope: Int) -> String? {
        var before = syntax.scopes[scope].open - 1
        if !syntax.isSwift {
            if syntax.token(before)?.is(")") == true, let open = syntax.partner(of: before) { before = open - 1 }
            guard syntax.token(before)?.text == "^" else { return nil }
            before -= 1
        }
        guard syntax.token(before)?.is(":") == true, let label = syntax.token(before - 1), label.kind == .identifier
        else { return nil }
        return label.text
    }

    /// The function name before an opening parenthesis: `async` in `queue.async(`.
    private func callName(before openParenthesis: Int) -> String? {
        guard let token = syntax.token(openParenthesis - 1), token.kind == .identifier else { return nil }
        return token.text
    }

    /// The unmatched `(` that `index` is inside, on the way back.
    private func enclosingParenthesis(of index: Int) -> Int? {
        var position = index - 1
        var steps = 0
        while position >= 0, steps < 512 {
            let token = syntax.tokens[position]
            if token.is(")") || token.is("]") || token.is("}"), let open = syntax.partner(of: position) {
                position = open - 1
                steps += 1
                continue
            }
            if token.is("(") { return position }
            if token.is("[") || token.is("{") || token.is(";") { return nil }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// The first closure between the token and `outer` (exclusive) that does not certainly run before
    /// its call returns; `nil` when the token runs synchronously as part of `outer`.
    func deferringClosure(of index: Int, within outer: Int) -> (scope: Int, timing: ClosureTiming)? {
        var current = syntax.scope(containing: index)
        while let scope = current, scope != outer {
            let region = syntax.scopes[scope]
            if region.kind == .closure || region.kind == .function || region.kind == .accessor {
                let timing = region.kind == .closure ? timing(ofClosure: scope) : .unknown(region.name)
                if timing != .synchronous { return (scope, timing) }
            }
            current = region.parent
        }
        return nil
    }

    /// Names of functions and methods in this file that end a task synchronously — in their own body
    /// or through another such function (`cancel` → `reset` → `endBackgroundTask`) — and of local
    /// closures that do (`dispatch_block_t done = ^{ … endBackgroundTask … };`), so that a handler
    /// calling `finishTask()`, `[self cancel]` or `done()` counts as ending it.
    var functionsThatEnd: Set<String> {
        if let names = shared.functionsThatEnd { return names }
        let names = uncachedFunctionsThatEnd
        shared.functionsThatEnd = names
        return names
    }

    private var uncachedFunctionsThatEnd: Set<String> {
        var names: Set<String> = []
        for end in endCalls {
            if let function = syntax.scopeChain(from: syntax.scope(containing: end.nameToken))
                .first(where: { syntax.scopes[$0].kind == .function }),
                deferringClosure(of: end.nameToken, within: function) == nil,
                let name = syntax.scopes[function].name
            {
                names.insert(String(name.prefix { $0 != ":" }))
            }
        }
        for (name, closures) in localClosures
        where closures.contains(where: { closure in
            endCalls.contains {
                syntax.scopes[closure].contains($0.nameToken)
                    && deferringClosure(of: $0.nameToken, within: closure) == nil
            }
        }) {
            names.insert(name)
        }
        guard !names.isEmpty else { return names }
        // Through other same-file functions, a few calls deep.
        let functions = syntax.scopes.indices.filter {
            syntax.scopes[$0].kind == .function && syntax.scopes[$0].name != nil
        }
        for _ in 0..<4 {
            var added = false
            for function in functions {
                guard let full = syntax.scopes[function].name else { continue }
                let name = String(full.prefix { $0 != ":" })
                guard !names.contains(name) else { continue }
                let calls = helperEndCalls(in: function, helpers: names)
                if calls.contains(where: { deferringClosure(of: $0, within: function) == nil }) {
                    names.insert(name)
                    added = true
                }
            }
            if !added { break }
        }
        return names
    }

    /// Calls in `scope` of a same-file function that ends a task (the helper's name token).
    func helperEndCalls(in scope: Int, helpers: Set<String>) -> [Int] {
        guard !helpers.isEmpty else { return [] }
        let region = syntax.scopes[scope]
        var calls: [Int] = []
        for index in (region.open + 1)..<region.close where syntax.tokens[index].kind == .identifier {
            let token = syntax.tokens[index]
            guard helpers.contains(token.text), let next = syntax.token(index + 1) else { continue }
            // Only calls on this object (`finish()`, `self.finish()`, `self?.finish()`, `[self finish]`,
            // `[weakSelf finish]`): `[self.sender setEnabled:NO]` is another object's method.
            func isOwnObject(_ receiver: Token) -> Bool {
                receiver.kind == .identifier && receiver.text.lowercased().hasSuffix("self")
            }
            if syntax.isSwift {
                guard next.is("("), syntax.token(index - 1)?.isIdentifier("func") != true else { continue }
                if let dot = syntax.token(index - 1), dot.is(".") {
                    var receiver = index - 2
                    if syntax.token(receiver)?.kind == .operator { receiver -= 1 }  // `self?.`
                    guard let owner = syntax.token(receiver), isOwnObject(owner) else { continue }
                }
                calls.append(index)
            } else if next.is("("), syntax.token(index - 1)?.is(")") != true,
                syntax.token(index - 1)?.is(".") != true || syntax.token(index - 2).map(isOwnObject) == true
            {
                calls.append(index)  // a block, a block property or a C function: `done();`, `self.done();`
            } else if next.is("]") || next.is(":"), let previous = syntax.token(index - 1), isOwnObject(previous),
                syntax.token(index - 2)?.is("[") == true
            {
                calls.append(index)
            }
        }
        return calls
    }

    /// Whether the file declares an operation class (`: NSOperation`, `: Operation`, `: AsyncOperation`),
    /// whose `start` / `main` run once per object.
    var declaresOperation: Bool {
        syntax.tokens.indices.contains { index in
            syntax.tokens[index].is(":")
                && syntax.token(index + 1).map {
                    $0.kind == .identifier && $0.text.hasSuffix("Operation")
                } == true
        }
    }

    /// Whether the function is `start` or `main` of an operation: a class this file declares as one,
    /// or one the code base does (`@interface Download : NSOperation` in a header, for
    /// `@implementation Download` here). It runs once per object, on the operation queue's thread.
    func isOperationEntryPoint(_ function: Int) -> Bool {
        guard let name = syntax.scopes[function].name, name == "start" || name == "main" else { return false }
        return declaresOperation || enclosingClassName(of: function).map(vocabulary.operationClasses.contains) == true
    }

    /// The class a function belongs to: the `@implementation`, `class`, `extension` or `struct` around it.
    func enclosingClassName(of function: Int) -> String? {
        if syntax.isSwift {
            for scope in syntax.scopeChain(from: syntax.scopes[function].parent)
            where syntax.scopes[scope].kind == .type {
                return swiftTypeName(of: scope) ?? syntax.scopes[scope].name
            }
            return nil
        }
        // The `@implementation … @end` ranges, found once per file, then a binary search.
        let implementations = sharedAnswers.implementations ?? TypeRanges.implementations(in: syntax)
        sharedAnswers.implementations = implementations
        return TypeRanges.implementation(at: syntax.scopes[function].open, in: implementations)
    }

    /// The last component of a Swift type's name: `UploadTaskInfo` for
    /// `extension SegmentDestination.UploadTaskInfo {`.
    private func swiftTypeName(of scope: Int) -> String? {
        var position = syntax.scopes[scope].open - 1
        var steps = 0
        while position >= 0, steps < 64 {
            let token = syntax.tokens[position]
            if token.kind == .identifier,
                ["class", "struct", "enum", "extension", "actor", "protocol"].contains(token.text)
            {
                var name: String?
                var cursor = position + 1
                while let part = syntax.token(cursor), part.kind == .identifier || part.is(".") {
                    if part.kind == .identifier { name = part.text }
                    cursor += 1
                }
                return name
            }
            if token.is("}") || token.is(";") { return nil }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// The function or method the token is in, for the finding's `function` field.
    func functionName(at index: Int) -> String? {
        syntax.namedFunction(containing: index).flatMap { syntax.scopes[$0].name }
    }
}
