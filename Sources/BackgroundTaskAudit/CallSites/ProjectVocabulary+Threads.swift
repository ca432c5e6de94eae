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
                queueCalledNames.formUnion(Self.calls(in: (region.open + 1)..<region.close, syntax).map(\.name))
            case .function:
                guard let full = region.name else { continue }
                let name = String(full.prefix { $0 != ":" })
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
    mutating func resolveThreads() {
        var offMain = queueCalledNames
        var frontier = queueCalledNames
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
