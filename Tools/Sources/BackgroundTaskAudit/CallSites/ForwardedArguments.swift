/// Reads the signature of the function or closure around a call and tells whether an argument of
/// the call passes one of its parameters straight through: `beginBackgroundTask(expirationHandler:
/// handler)`, `beginBackgroundTask { handler?() }`, `expirationHandler:handler]`. Such a call is
/// the inside of a wrapper; the caller's handler is the one that matters.
struct ForwardedArguments {
    let syntax: SourceSyntax

    /// A function's name and parameters.
    struct Signature {
        /// Swift: the base name; Objective-C: the first selector piece.
        var name: String
        /// Swift: the argument labels (`nil` for `_`); Objective-C: the selector pieces.
        var pieces: [String?]
        /// The parameters' names inside the body, in the same order.
        var parameters: [String]

        /// What calls are looked up by.
        var key: String { name }
    }

    /// Words that may stand beside a forwarded handler in a forwarding closure: `{ handler?() }`,
    /// `^{ if (handler) handler(); }`, `{ if let handler { handler() } }`.
    private static let forwardingWords: Set<String> = ["if", "let", "guard", "else", "return", "nil", "in", "_"]

    /// The signature of the function scope, or `nil` when it cannot be read.
    func signature(of function: Int) -> Signature? {
        syntax.isSwift ? swiftSignature(of: function) : objectiveCSignature(of: function)
    }

    /// The parameter index the argument forwards, when it is one of the parameters as is, or a
    /// closure that does nothing but call one.
    func forwardedParameter(_ argument: CallSite.Argument, in signature: Signature, within function: Int) -> Int? {
        switch argument {
        case .expression(let range):
            return parameterIndex(named: range, in: signature)
        case .closure(let scope):
            guard let name = forwardingClosureCall(scope, parameters: Set(signature.parameters)) else { return nil }
            return signature.parameters.firstIndex(of: name)
        default:
            return nil
        }
    }

    /// The index of the parameter that `range` names, when it is a single identifier.
    func parameterIndex(named range: Range<Int>, in signature: Signature) -> Int? {
        guard range.count == 1, let token = syntax.token(range.lowerBound), token.kind == .identifier else {
            return nil
        }
        return signature.parameters.firstIndex(of: token.text)
    }

    /// Whether the argument forwards a parameter of the innermost function or closure around the call.
    func forwardsParameter(_ argument: CallSite.Argument, at index: Int) -> Bool {
        for scope in syntax.scopeChain(from: syntax.scope(containing: index)) {
            let region = syntax.scopes[scope]
            if region.kind == .closure {
                let parameters = closureParameters(scope)
                guard !parameters.isEmpty else { continue }
                let signature = Signature(name: "", pieces: parameters.map { $0 }, parameters: parameters)
                if forwardedParameter(argument, in: signature, within: scope) != nil { return true }
            } else if region.kind == .function {
                guard let signature = signature(of: scope) else { return false }
                return forwardedParameter(argument, in: signature, within: scope) != nil
            }
        }
        return false
    }

    /// The parameter a closure only calls: `{ handler?() }` → `handler`.
    private func forwardingClosureCall(_ scope: Int, parameters: Set<String>) -> String? {
        let region = syntax.scopes[scope]
        guard region.close - region.open <= 24 else { return nil }
        var called: String?
        for index in (region.open + 1)..<region.close {
            let token = syntax.tokens[index]
            guard token.kind == .identifier else { continue }
            if parameters.contains(token.text) {
                let next = syntax.token(index + 1)
                let isCall =
                    next?.is("(") == true
                    || (next?.kind == .operator && next?.text == "?" && syntax.token(index + 2)?.is("(") == true)
                if isCall { called = token.text }
                continue
            }
            guard Self.forwardingWords.contains(token.text) else { return nil }
        }
        return called
    }

    /// A Swift closure's parameters (`{ name, handler in`), or an Objective-C block's (`^(BOOL expired) {`).
    private func closureParameters(_ scope: Int) -> [String] {
        let region = syntax.scopes[scope]
        if syntax.isSwift {
            var names: [String] = []
            var index = region.open + 1
            if syntax.token(index)?.is("[") == true, let close = syntax.partner(of: index) { index = close + 1 }
            while index < region.close, index < region.open + 48 {
                let token = syntax.tokens[index]
                if token.isIdentifier("in") { return names }
                if token.kind == .identifier, let next = syntax.token(index + 1),
                    next.is(",") || next.is(")") || next.is(":") || next.isIdentifier("in")
                {
                    names.append(token.text)
                } else if !(token.is("(") || token.is(")") || token.is(",") || token.kind == .identifier
                    || token.is(":") || token.is("->") || token.kind == .operator || token.is("."))
                {
                    return []
                }
                index += 1
            }
            return []
        }
        guard let close = syntax.token(region.open - 1), close.is(")"), let open = syntax.partner(of: region.open - 1)
        else { return [] }
        var names: [String] = []
        for index in (open + 1)..<(region.open - 1) {
            let token = syntax.tokens[index]
            if token.kind == .identifier, let next = syntax.token(index + 1), next.is(",") || next.is(")") {
                names.append(token.text)
            }
        }
        return names
    }

    /// `func name<T>(label inner: Type, _ other: Type) … {`.
    private func swiftSignature(of function: Int) -> Signature? {
        let open = syntax.scopes[function].open
        var position = open - 1
        var steps = 0
        while position >= 0, steps < 256 {
            let token = syntax.tokens[position]
            if token.is("}") || token.is("{") || token.is(";") { return nil }
            if token.is(")") || token.is("]"), let partner = syntax.partner(of: position) {
                position = partner - 1
                steps += 1
                continue
            }
            if token.isIdentifier("func") { break }
            position -= 1
            steps += 1
        }
        guard position >= 0, syntax.tokens[position].isIdentifier("func"), let name = syntax.token(position + 1),
            name.kind == .identifier
        else { return nil }
        var parenthesis = position + 2
        while parenthesis < open, !syntax.tokens[parenthesis].is("(") { parenthesis += 1 }
        guard parenthesis < open, let close = syntax.partner(of: parenthesis) else { return nil }
        var pieces: [String?] = []
        var parameters: [String] = []
        var start = parenthesis + 1
        var index = start
        func finish(at end: Int) {
            guard end > start else { return }
            let tokens = (start..<end).map { syntax.tokens[$0] }
            if tokens.count >= 3, tokens[0].kind == .identifier, tokens[1].kind == .identifier, tokens[2].is(":") {
                pieces.append(tokens[0].text == "_" ? nil : tokens[0].text)
                parameters.append(tokens[1].text)
            } else if tokens.count >= 2, tokens[0].kind == .identifier, tokens[1].is(":") {
                pieces.append(tokens[0].text)
                parameters.append(tokens[0].text)
            }
        }
        while index < close {
            let token = syntax.tokens[index]
            if token.is("(") || token.is("[") || token.is("{"), let partner = syntax.partner(of: index), partner < close
            {
                index = partner + 1
                continue
            }
            if token.is(",") {
                finish(at: index)
                start = index + 1
            }
            index += 1
        }
        finish(at: close)
        return Signature(name: name.text, pieces: pieces, parameters: parameters)
    }

    /// `- (Type)piece:(Type)name piece:(Type)name {`.
    private func objectiveCSignature(of function: Int) -> Signature? {
        let open = syntax.scopes[function].open
        var position = open - 1
        var steps = 0
        var start: Int?
        while position >= 0, steps < 256 {
            let token = syntax.tokens[position]
            if token.is("}") || token.is("{") || token.is(";") { break }
            if token.is(")") || token.is("]"), let partner = syntax.partner(of: position) {
                position = partner - 1
                steps += 1
                continue
            }
            if token.kind == .operator, token.text == "-" || token.text == "+",
                syntax.token(position + 1)?.is("(") == true
            {
                start = position
            }
            position -= 1
            steps += 1
        }
        guard let start, let typeClose = syntax.partner(of: start + 1) else { return nil }
        var pieces: [String?] = []
        var parameters: [String] = []
        var index = typeClose + 1
        while index < open {
            guard syntax.tokens[index].kind == .identifier else { break }
            let piece = syntax.tokens[index].text
            guard syntax.token(index + 1)?.is(":") == true else {
                if pieces.isEmpty { pieces.append(piece) }
                break
            }
            var nameIndex = index + 2
            if syntax.token(nameIndex)?.is("(") == true, let close = syntax.partner(of: nameIndex) {
                nameIndex = close + 1
            }
            guard let name = syntax.token(nameIndex), name.kind == .identifier else { break }
            pieces.append(piece)
            parameters.append(name.text)
            index = nameIndex + 1
        }
        guard let first = pieces.first, let name = first else { return nil }
        return Signature(name: name, pieces: pieces, parameters: parameters)
    }
}
