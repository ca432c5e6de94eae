/// Matches brackets and classifies every `{` in one pass over the tokens.
///
/// A brace is classified by the keyword that is waiting for it at the same bracket depth: `func`,
/// `init` → function body; `if`, `guard`, `for`, … → control block; `var x: T {`, `get` → accessor;
/// `class`, `struct`, `extension` → type body. In Swift every other brace is a closure; in
/// Objective-C a brace is a block literal only after `^`, a function or method body at file level,
/// and a plain compound statement elsewhere. Mismatched brackets are tolerated: a closer that
/// matches none of the eight innermost open brackets is ignored, and brackets left open at the end
/// close with the file. Every token costs constant time, so the pass is linear in the file.
struct ScopeBuilder {
    struct Result {
        var partner: [Int32]
        var scopes: [Scope]
        var scopeIndex: [Int32]
        /// The deepest brace nesting seen.
        var maximumDepth: Int
    }

    private struct Pending {
        var kind: Scope.Kind
        var name: String?
        var depth: Int
        var line: Int32
        var isVariable = false
    }

    /// An open brace (or the file) and the keywords waiting for a brace inside it, one per bracket depth.
    ///
    /// `pending` is in increasing order of depth, at most one per depth and none deeper than the open
    /// brackets, so every change touches only its end: each token costs constant time.
    private struct Frame {
        var scope: Int?
        var pending: [Pending] = []
        /// Whether this brace or an enclosing one is code (not a type body or the file).
        var isInsideCode = false
    }

    private let tokens: [Token]
    private let isSwift: Bool
    private var partner: [Int32]
    private var scopes: [Scope] = []
    private var scopeIndex: [Int32]
    /// Open brackets, innermost last.
    private var openers: [Int] = []
    /// One frame per open brace, plus the file.
    private var frames: [Frame] = [Frame(scope: nil)]
    private var maximumDepth = 0

    static func build(_ tokens: [Token], language: SourceLanguage) -> Result {
        var builder = ScopeBuilder(tokens: tokens, isSwift: language == .swift)
        builder.run()
        return Result(
            partner: builder.partner,
            scopes: builder.scopes,
            scopeIndex: builder.scopeIndex,
            maximumDepth: builder.maximumDepth
        )
    }

    private init(tokens: [Token], isSwift: Bool) {
        self.tokens = tokens
        self.isSwift = isSwift
        partner = Array(repeating: -1, count: tokens.count)
        scopeIndex = Array(repeating: -1, count: tokens.count)
    }

    private var currentScope: Int? { frames[frames.count - 1].scope }

    private func previous(_ index: Int) -> Token? {
        index > 0 ? tokens[index - 1] : nil
    }

    private mutating func setPending(_ pending: Pending) {
        dropPending(atOrDeeperThan: pending.depth)
        frames[frames.count - 1].pending.append(pending)
    }

    /// The keyword waiting at the current bracket depth.
    private var pendingHere: Pending? {
        guard let last = frames[frames.count - 1].pending.last, last.depth == openers.count else { return nil }
        return last
    }

    /// Forgets the keywords waiting at `depth` or deeper.
    private mutating func dropPending(atOrDeeperThan depth: Int) {
        while let last = frames[frames.count - 1].pending.last, last.depth >= depth {
            frames[frames.count - 1].pending.removeLast()
        }
    }

    /// Forgets the keyword waiting at the current bracket depth, if `condition` holds for it.
    private mutating func dropPendingHere(if condition: (Pending) -> Bool) {
        guard let here = pendingHere, condition(here) else { return }
        frames[frames.count - 1].pending.removeLast()
    }

    private mutating func run() {
        for index in tokens.indices {
            scopeIndex[index] = Int32(currentScope ?? -1)
            let token = tokens[index]
            switch token.kind {
            case .punctuation:
                switch token.text {
                case "(", "[": openers.append(index)
                case "{": open(index)
                case ")": close(index, opener: "(")
                case "]": close(index, opener: "[")
                case "}": close(index, opener: "{")
                case ";":
                    dropPendingHere { $0.kind != .control }
                default: break
                }
            case .identifier, .directive:
                if isSwift { noteSwiftKeyword(at: index) } else { noteObjectiveCKeyword(at: index) }
            case .operator:
                noteOperator(at: index)
            case .string, .number:
                break
            }
        }
        // Braces still open at the end of the file close with it.
        for frame in frames.reversed() {
            if let scope = frame.scope { scopes[scope].close = tokens.count }
        }
    }

    // MARK: - Brackets

    private mutating func open(_ index: Int) {
        let pending = pendingHere
        let depth = openers.count
        var kind: Scope.Kind
        var name: String?
        if let pending, !pending.isVariable || tokens[index].line == pending.line {
            kind = pending.kind
            name = pending.name
        } else if isSwift {
            kind = .closure
        } else {
            kind = objectiveCDefaultKind(at: index)
            if kind == .function { name = cFunctionName(before: index) }
        }
        if !isSwift, kind == .function, name == nil { name = cFunctionName(before: index) }
        dropPending(atOrDeeperThan: depth)
        let scope = scopes.count
        scopes.append(Scope(kind: kind, open: index, close: tokens.count, parent: currentScope, name: name))
        openers.append(index)
        let isInsideCode = frames[frames.count - 1].isInsideCode || kind != .type
        frames.append(Frame(scope: scope, isInsideCode: isInsideCode))
        maximumDepth = max(maximumDepth, frames.count - 1)
    }

    private func objectiveCDefaultKind(at index: Int) -> Scope.Kind {
        if previous(index)?.is("=") == true || previous(index)?.is(",") == true || previous(index)?.is("{") == true {
            return .compound
        }
        return frames[frames.count - 1].isInsideCode ? .compound : .function
    }

    /// The name before the parameter list that precedes a C function body.
    private func cFunctionName(before index: Int) -> String? {
        guard index > 0, tokens[index - 1].is(")"), partner[index - 1] > 0 else { return nil }
        let name = tokens[Int(partner[index - 1]) - 1]
        return name.kind == .identifier ? name.text : nil
    }

    private mutating func close(_ index: Int, opener: String) {
        // Only the innermost eight open brackets are searched, so each stray closer costs constant
        // time however many brackets are open (`(` × 100,000 then `}` × 100,000 stays linear).
        let nearby = max(0, openers.count - 8)..<openers.count
        guard let depth = openers[nearby].lastIndex(where: { tokens[$0].text == opener }) else {
            return  // a stray closer: ignore it
        }
        while openers.count > depth {
            let open = openers.removeLast()
            if tokens[open].text == "{" {
                let frame = frames.removeLast()
                if let scope = frame.scope { scopes[scope].close = index }
            }
            if openers.count == depth {
                partner[open] = Int32(index)
                partner[index] = Int32(open)
            }
        }
        // Keywords seen inside the closed brackets (`(void (^)(void))`) wait for nothing any more.
        dropPending(atOrDeeperThan: openers.count + 1)
        scopeIndex[index] = Int32(currentScope ?? -1)
    }

    // MARK: - Keywords

    private static let swiftControlKeywords: Set<String> = [
        "if", "guard", "else", "for", "while", "switch", "do", "catch", "defer", "repeat",
    ]
    private static let swiftTypeKeywords: Set<String> = ["class", "struct", "enum", "extension", "protocol", "actor"]
    private static let swiftAccessorKeywords: Set<String> = [
        "get", "set", "willSet", "didSet", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress",
    ]

    private mutating func noteSwiftKeyword(at index: Int) {
        let token = tokens[index]
        guard token.kind == .identifier, previous(index)?.is(".") != true else { return }
        let depth = openers.count
        let word = token.text
        let current = pendingHere
        if Self.swiftControlKeywords.contains(word) {
            setPending(Pending(kind: .control, name: word, depth: depth, line: token.line))
        } else if word == "func" {
            let name = index + 1 < tokens.count ? tokens[index + 1].text : nil
            setPending(Pending(kind: .function, name: name, depth: depth, line: token.line))
        } else if word == "init" || word == "deinit" || word == "subscript" {
            setPending(Pending(kind: .function, name: word, depth: depth, line: token.line))
        } else if Self.swiftTypeKeywords.contains(word) {
            // `class Foo`, not `actor.run()` or `let actor = …`
            guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return }
            let name = tokens[index + 1].text
            setPending(Pending(kind: .type, name: name, depth: depth, line: token.line))
        } else if Self.swiftAccessorKeywords.contains(word) {
            // `get {`, `set {`, `set(newValue) {`; not a call such as `get(url) { … }`
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            let isNamedParameter =
                next?.is("(") == true && index + 4 < tokens.count && tokens[index + 2].kind == .identifier
                && tokens[index + 3].is(")") && tokens[index + 4].is("{")
            guard next?.is("{") == true || isNamedParameter else { return }
            setPending(Pending(kind: .accessor, name: word, depth: depth, line: token.line))
        } else if word == "var" || word == "let" {
            if let current, current.kind == .control, current.depth == depth { return }  // `if let`
            if let current, current.kind == .function, current.depth < depth { return }  // a parameter
            let name = index + 1 < tokens.count ? tokens[index + 1].text : nil
            setPending(Pending(kind: .accessor, name: name, depth: depth, line: token.line, isVariable: true))
        }
    }

    private static let objectiveCControlKeywords: Set<String> = [
        "if", "else", "for", "while", "switch", "do", "@try", "@catch", "@finally", "@synchronized",
        "@autoreleasepool", "try", "catch",
    ]

    private mutating func noteObjectiveCKeyword(at index: Int) {
        let token = tokens[index]
        let depth = openers.count
        let word = token.text
        if Self.objectiveCControlKeywords.contains(word) {
            setPending(Pending(kind: .control, name: word, depth: depth, line: token.line))
        } else if ["struct", "union", "enum", "namespace", "@interface", "@implementation", "@protocol"].contains(word)
            || (word == "extern" && index + 1 < tokens.count && tokens[index + 1].kind == .string)
        {
            setPending(Pending(kind: .type, name: nil, depth: depth, line: token.line))
        } else if word == "@end" {
            frames[frames.count - 1].pending.removeAll()
        }
    }

    private mutating func noteOperator(at index: Int) {
        let token = tokens[index]
        let depth = openers.count
        if token.text == "^", !isSwift {
            setPending(Pending(kind: .closure, name: nil, depth: depth, line: token.line))
        } else if token.text == "=" {
            dropPendingHere { $0.isVariable }  // `let x = { … }`: a closure, not accessors
        } else if !isSwift, token.text == "-" || token.text == "+", depth == 0 || currentScopeIsType,
            index == 0 || tokens[index - 1].line < token.line
        {
            setPending(
                Pending(kind: .function, name: objectiveCSelector(after: index), depth: depth, line: token.line)
            )
        }
    }

    private var currentScopeIsType: Bool {
        guard let scope = currentScope else { return true }
        return scopes[scope].kind == .type
    }

    /// The selector of the method declared after `-` or `+` at `index`: `uploadFile:completion:`.
    private func objectiveCSelector(after index: Int) -> String? {
        var position = index + 1
        var pieces: [String] = []
        var hasArguments = false
        // A selector is short; the bound keeps a run of `- a:` lines without a body linear.
        while position < tokens.count, position < index + 256 {
            let token = tokens[position]
            if token.is("(") {
                guard partner[position] > 0 || findClose(from: position) != nil else { return nil }
                position = (findClose(from: position) ?? position) + 1
                continue
            }
            if token.is("{") || token.is(";") { break }
            if token.kind == .operator, token.text == "-" || token.text == "+", tokens[position - 1].line < token.line {
                break  // the next declaration
            }
            if token.kind == .identifier, position + 1 < tokens.count, tokens[position + 1].is(":") {
                pieces.append(token.text)
                hasArguments = true
                position += 2
                // skip the parameter's type and name
                if position < tokens.count, tokens[position].is("("), let close = findClose(from: position) {
                    position = close + 1
                }
                if position < tokens.count, tokens[position].kind == .identifier { position += 1 }
                continue
            }
            if token.kind == .identifier, pieces.isEmpty {
                pieces.append(token.text)
            }
            position += 1
            if pieces.count > 0, !hasArguments { break }
        }
        guard !pieces.isEmpty else { return nil }
        return hasArguments ? pieces.map { $0 + ":" }.joined() : pieces[0]
    }

    /// The `)` for the `(` at `index`, found by counting (the pass has not reached it yet).
    private func findClose(from index: Int) -> Int? {
        var depth = 0
        var position = index
        while position < tokens.count, position < index + 64 {
            if tokens[position].is("(") { depth += 1 }
            if tokens[position].is(")") {
                depth -= 1
                if depth == 0 { return position }
            }
            position += 1
        }
        return nil
    }
}
