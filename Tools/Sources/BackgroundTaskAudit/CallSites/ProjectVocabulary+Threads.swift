/// The code base's call structure that says which functions run on a queue, so that a begin or an
/// end in a function called from a queue in another file is known to run off the main thread.
extension ProjectVocabulary {
    /// Queue closures' calls, each function's synchronous calls, and operation classes of one file.
    mutating func collectThreads(from analysis: FileAnalysis) {
        let syntax = analysis.syntax
        let places = ThreadPlaces(analysis)
        for scope in syntax.scopes.indices {
            let region = syntax.scopes[scope]
            switch region.kind {
            case .closure where places.isQueueClosure(scope):
                // A call on `self` is the method of this type: `InboxPoller.sync`, not every type's `sync`.
                let owner = syntax.namedFunction(containing: region.open).flatMap {
                    analysis.enclosingClassName(of: $0)
                }
                for call in Self.calls(in: (region.open + 1)..<region.close, syntax) {
                    if let owner, !call.name.contains("."), Self.isSelfCall(call.token, syntax) {
                        queueCalledNames.insert(owner + "." + call.name)
                    } else {
                        queueCalledNames.insert(call.name)
                    }
                }
            case .function:
                guard let full = region.name else { continue }
                let name = String(full.prefix { $0 != ":" })
                declaringTypes[name, default: []].insert(analysis.enclosingClassName(of: scope) ?? "")
                if syntax.isSwift, Self.isPrivate(declaredBefore: region.open, syntax) { privateNames.insert(name) }
                let calls = Self.calls(in: (region.open + 1)..<region.close, syntax).filter {
                    analysis.deferringClosure(of: $0.token, within: scope) == nil
                }
                if !calls.isEmpty { callGraph[name, default: []].formUnion(calls.map(\.name)) }
            default:
                continue
            }
        }
        operationClasses.formUnion(Self.operationClasses(in: syntax))
        for call in Self.calls(in: syntax.tokens.indices, syntax) { callCounts[call.name, default: 0] += 1 }
    }

    /// Works out ``offMainFunctions`` from the merged queue calls and call graph, three calls deep.
    ///
    /// A call on `self` in a queue closure counts for that type's method (`InboxPoller.sync`), and for the bare name
    /// only when that type is the one the files read declare it in; a call through a type (`PlaybackManager.shared.finish()`) counts
    /// as `PlaybackManager.finish`; a call through a value (`coordinator?.beginBackgroundTask()`) for every method of
    /// the name that is not `private`.
    mutating func resolveThreads() {
        let declarers = declaringTypes
        let privates = privateNames
        var seeds: Set<String> = []
        for name in queueCalledNames {
            if let dot = name.firstIndex(of: ".") {
                seeds.insert(name)
                // `InboxPoller.sync` is every `sync` only when InboxPoller is the one type that declares it.
                let bare = String(name[name.index(after: dot)...])
                // A free function called bare from a type's closure is recorded as that type's; it is the free one.
                if declarers[bare] == [String(name[..<dot])] || declarers[bare]?.contains("") == true {
                    seeds.insert(bare)
                }
            } else if !privates.contains(name) {
                seeds.insert(name)  // through a value (`coordinator?.beginBackgroundTask()`): any type's
            }
        }
        var offMain = seeds
        var frontier = seeds
        for _ in 0..<3 {
            var next: Set<String> = []
            for name in frontier {
                for callee in callGraph[name] ?? [] where !offMain.contains(callee) { next.insert(callee) }
            }
            guard !next.isEmpty else { break }
            offMain.formUnion(next)
            frontier = next
        }
        offMainFunctions = offMain
    }

    /// Calls in a token range that can be told apart across files: Swift `name(` and `self.name(`,
    /// Objective-C `[self name]` and C `name(`; with another receiver (`other.name(`, `[other name]`)
    /// only names specific enough not to collide — a keyword selector (`[storage storeEvent:…]`) or a
    /// name about background tasks (`coordinator.beginBackgroundTask()`).
    static func calls(in range: Range<Int>, _ syntax: SourceSyntax) -> [(token: Int, name: String)] {
        var calls: [(token: Int, name: String)] = []
        for index in range where syntax.tokens[index].kind == .identifier {
            guard let next = syntax.token(index + 1), let previous = syntax.token(index - 1) else { continue }
            let name = syntax.tokens[index].text
            if syntax.isSwift {
                guard next.is("("), !previous.isIdentifier("func") else { continue }
                let onSelf = !previous.is(".") || syntax.token(index - 2)?.isIdentifier("self") == true
                if onSelf || isPlausibleShimName(name) { calls.append((index, name)) }
                // Through a type: `PlaybackManager.shared.finish()`, `Store.reset()`.
                if !onSelf, let type = receiverType(endingBefore: index - 1, syntax) {
                    calls.append((index, type + "." + name))
                }
            } else if next.is("(") && !previous.is(")") && !previous.is(".") {
                calls.append((index, name))
            } else if next.is("]") || next.is(":"), previous.kind == .identifier || previous.is("]") || previous.is(")")
            {
                // Every keyword piece counts (`onComplete:` too): a function is looked up by its first.
                let onSelf = previous.isIdentifier("self")
                if onSelf || next.is(":") || isPlausibleShimName(name) { calls.append((index, name)) }
                // A class method: `[Downloader start]` is also recorded as `Downloader.start`; a message
                // to a local declared `Downloader *task` as `Downloader.end`.
                if previous.kind == .identifier, syntax.token(index - 2)?.is("[") == true {
                    if previous.text.first?.isUppercase == true {
                        calls.append((index, previous.text + "." + name))
                    } else if let type = declaredClass(of: previous.text, before: index - 1, syntax) {
                        calls.append((index, type + "." + name))
                    }
                }
            }
        }
        return calls
    }

    /// Whether the call at `index` is on `self`: `name(`, `self.name(`, `self?.name(`, `[self name…]`.
    private static func isSelfCall(_ index: Int, _ syntax: SourceSyntax) -> Bool {
        // `UploadInfo(…)` makes a value of a type: not a method of this one.
        if syntax.tokens[index].text.first?.isUppercase == true { return false }
        guard let previous = syntax.token(index - 1) else { return true }
        if syntax.isSwift {
            guard previous.is(".") else { return true }
            var receiver = index - 2
            if syntax.token(receiver)?.kind == .operator { receiver -= 1 }
            return syntax.token(receiver)?.isIdentifier("self") == true
        }
        if syntax.token(index + 1)?.is("(") == true { return false }  // a C function
        return previous.isIdentifier("self") && syntax.token(index - 2)?.is("[") == true
    }

    /// The type a Swift receiver starts with (`PlaybackManager` in `PlaybackManager.shared.`), or `nil` for a value.
    private static func receiverType(endingBefore dot: Int, _ syntax: SourceSyntax) -> String? {
        let start = ReceiverScanner(syntax: syntax).expressionStart(endingAt: dot + 1)
        guard start < dot, let first = syntax.token(start), first.kind == .identifier,
            first.text.first?.isUppercase == true, first.text != "Self"
        else { return nil }
        return first.text
    }

    /// Whether the declaration whose body opens at `open` is `private` or `fileprivate`.
    static func isPrivate(declaredBefore open: Int, _ syntax: SourceSyntax) -> Bool {
        var cursor = open - 1
        var steps = 0
        while cursor > 0, steps < 80 {
            let token = syntax.tokens[cursor]
            if token.is("{") || token.is("}") || token.is(";") { return false }
            if token.isIdentifier("func") || token.isIdentifier("init") {
                let modifiers = syntax.tokens[max(0, cursor - 4)..<cursor]
                return modifiers.contains { $0.isIdentifier("private") || $0.isIdentifier("fileprivate") }
            }
            cursor -= 1
            steps += 1
        }
        return false
    }

    /// `Downloader` for a local declared `Downloader *name` in the function around `index`.
    private static func declaredClass(of name: String, before index: Int, _ syntax: SourceSyntax) -> String? {
        guard let function = syntax.namedFunction(containing: index) else { return nil }
        var position = index - 1
        let open = syntax.scopes[function].open
        while position > open + 1 {
            defer { position -= 1 }
            guard syntax.tokens[position].isIdentifier(name), syntax.tokens[position - 1].text == "*",
                let type = syntax.token(position - 2), type.kind == .identifier, type.text.first?.isUppercase == true
            else { continue }
            return type.text
        }
        return nil
    }

    /// `class Upload: Operation`, `@interface Download : NSOperation`.
    private static func operationClasses(in syntax: SourceSyntax) -> [String] {
        var names: [String] = []
        for index in syntax.tokens.indices where syntax.tokens[index].is(":") {
            guard let base = syntax.token(index + 1), base.kind == .identifier, base.text.hasSuffix("Operation"),
                let name = syntax.token(index - 1), name.kind == .identifier,
                let keyword = syntax.token(index - 2),
                keyword.isIdentifier("class") || keyword.text == "@interface"
            else { continue }
            names.append(name.text)
        }
        return names
    }
}
