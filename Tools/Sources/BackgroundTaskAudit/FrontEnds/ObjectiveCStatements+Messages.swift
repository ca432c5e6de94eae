import AuditCodeModel

extension ObjectiveCStatements {
    /// `[receiver part:argument part2:argument2]` or `[receiver name]`, `open` and `close` its brackets.
    mutating func message(from open: Int, to close: Int) -> CodeExpression {
        let receiverEnd = primaryEnd(from: open + 1, to: close)
        guard receiverEnd < close, tokens[receiverEnd].kind == .identifier else {
            return .other(open + 1 < close ? [expression(from: open + 1, to: close)] : [])
        }
        let receiver = expression(from: open + 1, to: receiverEnd)
        let name = tokens[receiverEnd].text
        guard syntax.token(receiverEnd + 1)?.is(":") == true else {
            return .call(
                CodeCall(receiver: receiver, name: name, arguments: [], location: range(receiverEnd, receiverEnd)))
        }
        // Keyword parts: `part:` at the message's own depth; each argument runs to the next part.
        var keywords: [Int] = []
        var index = receiverEnd
        while index < close {
            if tokens[index].is("(") || tokens[index].is("[") || tokens[index].is("{"), let inner = partner(index) {
                index = inner + 1
                continue
            }
            if tokens[index].is("^") {
                index = blockEnd(from: index, to: close)
                continue
            }
            if tokens[index].kind == .identifier, syntax.token(index + 1)?.is(":") == true,
                index == receiverEnd || !isTernary(before: index, from: receiverEnd)
            {
                keywords.append(index)
                index += 2
                continue
            }
            index += 1
        }
        let arguments = keywords.indices.map { position -> CodeCall.Argument in
            let start = keywords[position] + 2
            let stop = position + 1 < keywords.count ? keywords[position + 1] : close
            return CodeCall.Argument(label: tokens[keywords[position]].text, value: expression(from: start, to: stop))
        }
        return .call(
            CodeCall(receiver: receiver, name: name, arguments: arguments, location: range(receiverEnd, receiverEnd)))
    }

    /// Whether a `?` of a conditional expression is open before `index` (so its `:` is not a selector part).
    private func isTernary(before index: Int, from start: Int) -> Bool {
        var open = 0
        for position in start..<index where tokens[position].kind == .operator {
            if tokens[position].text == "?" { open += 1 }
        }
        for position in start..<index where tokens[position].is(":") { open -= 1 }
        return open > 0
    }

    /// The end of the receiver that starts at `start`: a message, a parenthesized expression, a C call, or a member
    /// path.
    private func primaryEnd(from start: Int, to end: Int) -> Int {
        var index = start
        if tokens[index].is("[") || tokens[index].is("("), let close = partner(index) {
            index = close + 1
            // A cast is followed by what it casts.
            if tokens[start].is("("), index < end, tokens[index].kind == .identifier || tokens[index].is("[") {
                return primaryEnd(from: index, to: end)
            }
        } else if tokens[index].kind == .identifier {
            index += 1
            if index < end, tokens[index].is("("), let close = partner(index) { index = close + 1 }
        } else {
            return start
        }
        while index + 1 < end, tokens[index].is(".") || tokens[index].text == "->",
            tokens[index + 1].kind == .identifier
        {
            index += 2
        }
        return index
    }

    /// The end of a block literal that starts with `^` at `start`: after its body's `}`.
    func blockEnd(from start: Int, to end: Int) -> Int {
        var index = start + 1
        while index < end, !tokens[index].is("{") {
            if tokens[index].is("("), let close = partner(index) {
                index = close + 1
                continue
            }
            index += 1
        }
        guard index < end, let close = partner(index) else { return end }
        return min(close + 1, end)
    }

    /// `^{ … }`, `^(BOOL expired) { … }`, `^void(void) { … }`: a closure body whose weak captures are the `__weak`
    /// locals it names.
    mutating func block(from start: Int, to end: Int) -> CodeExpression {
        var index = start + 1
        var parameters: [CodeBody.Parameter] = []
        while index < end, !tokens[index].is("{") {
            if tokens[index].is("("), let close = partner(index) {
                var first = index + 1
                for position in index + 1...close where tokens[position].is(",") || position == close {
                    let candidates = (first..<position).reversed().map { tokens[$0] }
                    if let name = candidates.first(where: { $0.kind == .identifier && $0.text != "void" }) {
                        parameters.append(CodeBody.Parameter(label: "_", name: name.text, isClosure: false))
                    }
                    first = position + 1
                }
                index = close + 1
                continue
            }
            index += 1
        }
        guard index < end, let close = partner(index) else { return .other([]) }
        let named = Set((index..<close).map { tokens[$0] }.filter { $0.kind == .identifier }.map(\.text))
        let captures = weakNames.intersection(named).sorted().map { CodeBody.Capture(strength: .weak, name: $0) }
        var inner = self
        let body = CodeBody(
            kind: .closure, name: nil, parameters: parameters, captures: captures,
            steps: inner.steps(from: index + 1, to: close), location: range(start, close))
        return .closure(body)
    }
}
