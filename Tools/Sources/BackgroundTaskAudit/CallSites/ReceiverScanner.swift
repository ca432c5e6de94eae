/// Walks back from a method name over its receiver chain (`UIApplication.shared.`, `self?.app.`,
/// `objects[0].`, `make().`) to the first token of the expression.
struct ReceiverScanner {
    let syntax: SourceSyntax

    func expressionStart(endingAt index: Int) -> Int {
        var start = index
        while start > 0 {
            guard let dot = syntax.token(start - 1), dot.is(".") else { break }
            var position = start - 2
            // `self?.x`, `x!.y`
            while position >= 0, let token = syntax.token(position), token.kind == .operator,
                token.text == "?" || token.text == "!"
            {
                position -= 1
            }
            // `call().x`, `list[0].x`
            while position >= 0, let token = syntax.token(position), token.is(")") || token.is("]"),
                let open = syntax.partner(of: position)
            {
                position = open - 1
            }
            guard position >= 0, let token = syntax.token(position), token.kind == .identifier else {
                // `.shared.beginBackgroundTask` after an implicit member: stop at the dot
                return start - 1
            }
            start = position
        }
        return start
    }
}
