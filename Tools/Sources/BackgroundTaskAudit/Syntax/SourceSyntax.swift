/// A file's tokens with their bracket pairs and brace scopes: the little structure the rules need.
struct SourceSyntax: Sendable {
    let language: SourceLanguage
    let tokens: [Token]
    /// For each bracket token, the index of its partner; `-1` for other tokens and unmatched brackets.
    let partner: [Int32]
    /// All brace scopes, in order of their `{`.
    let scopes: [Scope]
    /// For each token, the innermost scope strictly containing it; `-1` at file level.
    let scopeIndex: [Int32]
    /// Comments that mention `bgtask:ignore`.
    let suppressions: [SuppressionComment]
    /// The deepest brace nesting in the file.
    let maximumDepth: Int
    /// Whether the file imports a test framework (``TestCode/importsTestFramework(_:)``).
    let importsTestFramework: Bool
    /// The contents of plain string literals that name a `BGTaskScheduler` task identifier, by token index (the
    /// tokens keep no string contents otherwise).
    let taskIdentifierLiterals: [Int: String]

    init(bytes: [UInt8], language: SourceLanguage) {
        let lexed = Lexer.tokenize(bytes, language: language)
        let structure = ScopeBuilder.build(lexed.tokens, language: language)
        self.language = language
        self.tokens = lexed.tokens
        self.suppressions = lexed.suppressions
        self.partner = structure.partner
        self.scopes = structure.scopes
        self.scopeIndex = structure.scopeIndex
        self.maximumDepth = structure.maximumDepth
        self.importsTestFramework = TestCode.importsTestFramework(bytes)
        self.taskIdentifierLiterals = TaskIdentifierLiterals.find(in: lexed.tokens, bytes: bytes)
    }

    var isSwift: Bool { language == .swift }

    func token(_ index: Int) -> Token? {
        index >= 0 && index < tokens.count ? tokens[index] : nil
    }

    func partner(of index: Int) -> Int? {
        guard index >= 0, index < partner.count, partner[index] >= 0 else { return nil }
        return Int(partner[index])
    }

    /// The innermost scope containing the token, if any.
    func scope(containing index: Int) -> Int? {
        guard index >= 0, index < scopeIndex.count, scopeIndex[index] >= 0 else { return nil }
        return Int(scopeIndex[index])
    }

    /// The scope whose `{` is the token at `index`.
    func scope(openedAt index: Int) -> Int? {
        var low = 0
        var high = scopes.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let open = scopes[middle].open
            if open == index { return middle }
            if open < index { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// The scope, then its parents, innermost first.
    func scopeChain(from scope: Int?) -> [Int] {
        var chain: [Int] = []
        var current = scope
        while let index = current {
            chain.append(index)
            current = scopes[index].parent
        }
        return chain
    }

    /// The innermost function, accessor or closure containing the token.
    func executableScope(containing index: Int) -> Int? {
        scopeChain(from: scope(containing: index)).first { scopes[$0].isExecutable }
    }

    /// The innermost named function or accessor containing the token (closures are looked through).
    func namedFunction(containing index: Int) -> Int? {
        scopeChain(from: scope(containing: index)).first {
            scopes[$0].kind == .function || scopes[$0].kind == .accessor
        }
    }

    /// Whether `inner` is `outer` or nested inside it.
    func scope(_ inner: Int, isWithin outer: Int) -> Bool {
        scopeChain(from: inner).contains(outer)
    }

    /// The text of tokens in `range` with a space wherever the source had one (for messages: `case .error`).
    func spacedText(_ range: Range<Int>) -> String {
        var text = ""
        var previous: Token?
        for index in range.clamped(to: 0..<tokens.count) {
            let token = tokens[index]
            if let previous,
                previous.line != token.line || Int(token.column) > Int(previous.column) + previous.text.utf8.count
            {
                text += " "
            }
            text += token.text
            previous = token
        }
        return text
    }

    /// The text of tokens in `range`, joined without spaces (for messages).
    func text(_ range: Range<Int>) -> String {
        range.clamped(to: 0..<tokens.count).map { tokens[$0].text }.joined()
    }
}

extension Range where Bound == Int {
    /// `lower..<upper`, or an empty range at `lower` when a malformed file puts `upper` first (an unterminated
    /// scope closes at the end of the file, which can come before a position computed past it).
    init(guarding lower: Int, _ upper: Int) {
        self = lower <= upper ? lower..<upper : lower..<lower
    }
}
