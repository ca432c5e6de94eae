import AuditCodeModel

extension ObjectiveCStatements {
    /// Qualifiers that may stand before a local's type.
    private static let qualifiers: Set<String> = [
        "__block", "__weak", "__strong", "__unsafe_unretained", "__autoreleasing", "static", "const", "volatile",
        "register", "typeof", "__typeof", "__typeof__", "weak",
    ]

    /// A declaration, an assignment or an expression, `start..<end` (without its `;`).
    mutating func simpleStatement(from start: Int, to end: Int) -> [Step] {
        guard start < end else { return [] }
        let at = range(start, end - 1)
        let assign = (start..<end).first { index in
            tokens[index].kind == .operator && tokens[index].text == "=" && !isInsideBrackets(index, from: start)
        }
        let left = start..<(assign ?? end)
        if let name = declaredName(left) {
            let isWeak = left.contains { ["__weak", "__unsafe_unretained", "weak"].contains(tokens[$0].text) }
            if isWeak { weakNames.insert(name) } else { weakNames.remove(name) }
            let value = assign.map { expression(from: $0 + 1, to: end) }
            let isShared = left.contains { tokens[$0].text == "__block" }
            return [Step(.declare(name: name, isMutable: isShared, value: value), at: at)]
        }
        if let assign {
            return [
                Step(
                    .assign(target: expression(from: start, to: assign), value: expression(from: assign + 1, to: end)),
                    at: at)
            ]
        }
        return [Step(.evaluate(expression(from: start, to: end)), at: at)]
    }

    private func isInsideBrackets(_ index: Int, from start: Int) -> Bool {
        var position = start
        while position < index {
            if tokens[position].is("(") || tokens[position].is("[") || tokens[position].is("{"),
                let close = partner(position)
            {
                if close > index { return true }
                position = close + 1
                continue
            }
            position += 1
        }
        return false
    }

    /// The name a local declaration declares (`UIBackgroundTaskIdentifier task`, `__block NSString *name`,
    /// `__weak typeof(self) weakSelf`), or `nil` when `range` is not one.
    private func declaredName(_ range: Range<Int>) -> String? {
        if let name = blockDeclaredName(range) { return name }
        var names: [String] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.kind == .identifier {
                if ["typeof", "__typeof", "__typeof__"].contains(token.text), syntax.token(index + 1)?.is("(") == true,
                    let close = partner(index + 1)
                {
                    names.append("typeof")
                    index = close + 1
                    continue
                }
                names.append(token.text)
            } else if token.is("<"), let close = (index..<range.upperBound).first(where: { tokens[$0].is(">") }) {
                index = close + 1  // a generic or protocol list: NSArray<NSString *>
                continue
            } else if !(token.kind == .operator && token.text == "*") {
                return nil
            }
            index += 1
        }
        let typeNames = names.dropLast().filter { !Self.qualifiers.contains($0) || $0 == "typeof" }
        guard let name = names.last, !typeNames.isEmpty, !Self.qualifiers.contains(name),
            !["return", "else", "case", "goto"].contains(names.first ?? "")
        else { return nil }
        return name
    }

    /// The name a block variable's declaration declares: `void (^cleanup)(BOOL, NSError *)`,
    /// `dispatch_block_t _Nullable (^_Nonnull finish)(void)`; `nil` when `range` is not one.
    private func blockDeclaredName(_ range: Range<Int>) -> String? {
        guard
            let open = range.first(where: { tokens[$0].is("(") }), open > range.lowerBound,
            syntax.token(open + 1)?.is("^") == true, let close = partner(open), close < range.upperBound,
            (range.lowerBound..<open).allSatisfy({ tokens[$0].kind == .identifier || tokens[$0].text == "*" })
        else { return nil }
        // After the name's parentheses, only the parameter list: `(BOOL, NSError *)`, up to the end of the range.
        if close + 1 < range.upperBound {
            guard tokens[close + 1].is("("), partner(close + 1) == range.upperBound - 1 else { return nil }
        }
        return (open + 2..<close).last { tokens[$0].kind == .identifier }.map { tokens[$0].text }
    }

    // MARK: - Expressions

    /// The model of the expression `start..<end`.
    mutating func expression(from start: Int, to end: Int) -> CodeExpression {
        guard start < end else { return .other([]) }
        let first = tokens[start]
        // A parenthesized expression or a cast: `(x)`, `(NSString *)value`.
        if first.is("("), let close = partner(start), close < end {
            if close == end - 1 { return expression(from: start + 1, to: close) }
            if (start + 1..<close).allSatisfy({ tokens[$0].kind == .identifier || tokens[$0].text == "*" }) {
                return expression(from: close + 1, to: end)
            }
        }
        if first.is("["), let close = partner(start), close == end - 1 { return message(from: start, to: close) }
        if first.is("^") { return block(from: start, to: end) }
        if end - start == 1 {
            switch first.kind {
            case .string: return .literal(.string(isEmpty: first.text.isEmpty))
            case .number: return .literal(.other(first.text))
            case .identifier where ["nil", "NULL", "Nil"].contains(first.text): return .literal(.nil)
            default: break
            }
        }
        if let path = referencePath(from: start, to: end) { return .reference(path) }
        // A block kept in a property, called: `self.cleanup()`, `weakSelf->_onDone(YES)`.
        if tokens[end - 1].is(")"), end - 1 < syntax.partner.count, Int(syntax.partner[end - 1]) < end - 1,
            case let open = Int(syntax.partner[end - 1]), open > start + 1, tokens[open].is("("),
            let path = referencePath(from: start, to: open), path.count > 1
        {
            return .call(
                CodeCall(
                    receiver: .reference(Array(path.dropLast())), name: path[path.count - 1],
                    arguments: commaSeparated(from: open + 1, to: end - 1).map {
                        CodeCall.Argument(label: nil, value: $0)
                    },
                    location: range(open - 1, open - 1)))
        }
        if first.kind == .identifier, syntax.token(start + 1)?.is("(") == true, let close = partner(start + 1),
            close == end - 1
        {
            return .call(
                CodeCall(
                    receiver: nil, name: first.text,
                    arguments: commaSeparated(from: start + 2, to: close).map {
                        CodeCall.Argument(label: nil, value: $0)
                    },
                    location: range(start, start)))
        }
        return .other(parts(from: start, to: end))
    }

    /// `name`, `self.task`, `self->_task`, `weakSelf.manager.task`.
    private func referencePath(from start: Int, to end: Int) -> [String]? {
        var path: [String] = []
        var index = start
        while index < end {
            guard tokens[index].kind == .identifier else { return nil }
            path.append(tokens[index].text)
            index += 1
            guard index < end else { break }
            guard tokens[index].is(".") || tokens[index].text == "->" else { return nil }
            index += 1
        }
        return path.isEmpty ? nil : path
    }

    /// The calls, messages, blocks and references inside an expression the model does not spell out.
    private mutating func parts(from start: Int, to end: Int) -> [CodeExpression] {
        var parts: [CodeExpression] = []
        var index = start
        while index < end {
            let token = tokens[index]
            if token.is("["), let close = partner(index), close < end {
                parts.append(message(from: index, to: close))
                index = close + 1
            } else if token.is("^") {
                let stop = blockEnd(from: index, to: end)
                parts.append(block(from: index, to: stop))
                index = stop
            } else if token.kind == .identifier, syntax.token(index + 1)?.is("(") == true,
                let close = partner(index + 1),
                close < end
            {
                parts.append(expression(from: index, to: close + 1))
                index = close + 1
            } else if token.is("("), let close = partner(index), close < end {
                parts.append(expression(from: index + 1, to: close))
                index = close + 1
            } else {
                if token.kind == .identifier, let path = referencePath(from: index, to: index + 1) {
                    parts.append(.reference(path))
                }
                index += 1
            }
        }
        return parts
    }

    /// The arguments of a C call, split at the top-level commas.
    private mutating func commaSeparated(from start: Int, to end: Int) -> [CodeExpression] {
        var arguments: [CodeExpression] = []
        var first = start
        var index = start
        while index < end {
            if tokens[index].is("(") || tokens[index].is("[") || tokens[index].is("{"), let close = partner(index) {
                index = close + 1
                continue
            }
            if tokens[index].is(",") {
                arguments.append(expression(from: first, to: index))
                first = index + 1
            }
            index += 1
        }
        if first < end { arguments.append(expression(from: first, to: end)) }
        return arguments
    }
}
