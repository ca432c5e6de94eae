/// The name of the local a closure is assigned to where it is declared: `let done = { … }`,
/// `var finish: () -> Void = { … }`, `dispatch_block_t done = ^{ … };`,
/// `void (^done)(void) = ^{ … };`, `__auto_type done = ^(BOOL ok) { … };`.
enum LocalClosureName {
    static func name(of scope: Int, in syntax: SourceSyntax) -> String? {
        var position = syntax.scopes[scope].open - 1
        if !syntax.isSwift {
            if syntax.token(position)?.is(")") == true, let open = syntax.partner(of: position) { position = open - 1 }
            guard syntax.token(position)?.text == "^" else { return nil }
            position -= 1
        }
        guard let equals = syntax.token(position), equals.kind == .operator, equals.text == "=" else { return nil }
        position -= 1
        guard let before = syntax.token(position) else { return nil }
        if syntax.isSwift {
            // Back over a type annotation to `let` / `var`.
            var cursor = position
            while cursor >= 0, cursor > position - 24 {
                let token = syntax.tokens[cursor]
                if token.is(";") || token.is("{") || token.is("}") { return nil }
                if token.isIdentifier("let") || token.isIdentifier("var") {
                    guard let name = syntax.token(cursor + 1), name.kind == .identifier else { return nil }
                    return name.text
                }
                if token.is(")"), let open = syntax.partner(of: cursor) {
                    cursor = open - 1
                } else {
                    cursor -= 1
                }
            }
            return nil
        }
        if before.kind == .identifier { return before.text }
        // `void (^done)(void) = ^{`: the name is after the caret in the first parentheses.
        guard before.is(")"), var open = syntax.partner(of: position) else { return nil }
        if syntax.token(open - 1)?.is(")") == true, let first = syntax.partner(of: open - 1) { open = first }
        guard syntax.token(open + 1)?.text == "^", let name = syntax.token(open + 2), name.kind == .identifier else {
            return nil
        }
        return name.text
    }
}
