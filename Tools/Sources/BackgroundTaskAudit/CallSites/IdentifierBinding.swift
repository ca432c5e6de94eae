/// Where a begin call's identifier is stored: `let task = …`, `self.task = …`, `_task = …`.
struct IdentifierBinding: Sendable {
    enum Storage: Sendable, Equatable {
        /// A local variable (or parameter) of the enclosing function or closure; `scope` declares it.
        case local(scope: Int?)
        /// A property, instance variable or global: anything outliving the call.
        case property
    }

    /// The variable's name without `self.` or a leading underscore, for matching against end calls.
    var name: String
    /// The assignment target as written (`self.backgroundTask`).
    var written: String
    var storage: Storage
    /// The token of the declaration's name (locals only).
    var declaration: Int?
    /// Swift: declared with an optional or implicitly unwrapped type, or initialized to `nil`.
    var isOptional: Bool
    /// Objective-C: declared `__block`.
    var isBlockQualified: Bool
    /// The type whose code begins it (a property's ends are looked for in that type's code).
    var owner: String? = nil

    /// A binding to storage that outlives the call: a property, an instance variable or a global.
    static func property(name: String, written: String) -> IdentifierBinding {
        IdentifierBinding(
            name: name,
            written: written,
            storage: .property,
            declaration: nil,
            isOptional: false,
            isBlockQualified: false
        )
    }

    /// `self.task` → `task`, `_task` → `task`, `strongSelf->_task` → `task`, `task!` → `task`.
    static func normalizedName(_ syntax: SourceSyntax, _ range: Range<Int>) -> String? {
        var upper = range.upperBound
        if let coalescing = range.first(where: { syntax.tokens[$0].kind == .operator && syntax.tokens[$0].text == "??" }
        ) {
            upper = coalescing
        }
        guard let last = (range.lowerBound..<upper).last(where: { syntax.tokens[$0].kind == .identifier }) else {
            return nil
        }
        let name = syntax.tokens[last].text.drop { $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }
}

/// Finds what a begin call's result is assigned to, and whether that is a local.
struct BindingResolver {
    let syntax: SourceSyntax

    func binding(of site: CallSite) -> IdentifierBinding? {
        // `x = await …`, `x = try …`, `x = try? …`: step back over the effect keywords to the `=`.
        var equals = site.start - 1
        while let previous = syntax.token(equals) {
            if previous.isIdentifier("await") || previous.isIdentifier("try") {
                equals -= 1
            } else if previous.kind == .operator, previous.text == "?" || previous.text == "!",
                syntax.token(equals - 1)?.isIdentifier("try") == true
            {
                equals -= 2
            } else {
                break
            }
        }
        guard let token = syntax.token(equals), token.kind == .operator, token.text == "=" else { return nil }
        let lhsEnd = equals  // exclusive
        var lhsStart = lhsEnd
        // Walk back over `self.x`, `self->_x`, `x`, and a Swift type annotation `x: T`.
        var annotationStart: Int?
        if syntax.isSwift, let colon = swiftAnnotationColon(before: lhsEnd) {
            annotationStart = colon
            lhsStart = colon
        }
        let nameEnd = annotationStart ?? lhsEnd
        var position = nameEnd - 1
        let line = token.line
        while position >= 0, syntax.tokens[position].line == line {
            let current = syntax.tokens[position]
            if current.kind == .identifier || current.is(".") || current.is("->")
                || (current.kind == .operator && (current.text == "?" || current.text == "!"))
            {
                position -= 1
                continue
            }
            break
        }
        lhsStart = position + 1
        guard lhsStart < nameEnd, let name = IdentifierBinding.normalizedName(syntax, lhsStart..<nameEnd) else {
            return nil
        }
        let written = syntax.text(lhsStart..<nameEnd)
        let chain = (lhsStart..<nameEnd).map { syntax.tokens[$0] }
        let hasMemberAccess = chain.contains { $0.is(".") || $0.is("->") }

        // Swift `let x = …` / `private var x: T = …`: the name follows `let`/`var` (after any
        // modifiers). In a type body or at file level it is a stored property or a global.
        if syntax.isSwift {
            if let keyword = chain.firstIndex(where: { $0.isIdentifier("let") || $0.isIdentifier("var") }),
                keyword + 1 < chain.count
            {
                let nameToken = lhsStart + keyword + 1
                let scope = syntax.scope(containing: nameToken)
                if scope.map({ syntax.scopes[$0].kind == .type }) ?? true {
                    return IdentifierBinding.property(name: name, written: syntax.tokens[nameToken].text)
                }
                return IdentifierBinding(
                    name: name,
                    written: syntax.tokens[nameToken].text,
                    storage: .local(scope: scope),
                    declaration: nameToken,
                    isOptional: swiftDeclarationIsOptional(nameToken: nameToken),
                    isBlockQualified: false
                )
            }
        } else if chain.count >= 2, !hasMemberAccess {
            // Objective-C `UIBackgroundTaskIdentifier task = …`: type then name.
            let nameToken = nameEnd - 1
            return IdentifierBinding(
                name: name,
                written: syntax.tokens[nameToken].text,
                storage: .local(scope: syntax.scope(containing: nameToken)),
                declaration: nameToken,
                isOptional: false,
                isBlockQualified: chain.contains { $0.isIdentifier("__block") }
            )
        }
        if hasMemberAccess {
            // `box.value = …` where `box` is a local of this function: a box the function owns
            // (an atomic, a struct), a local to the rules under the box's name.
            if let root = chain.first, root.kind == .identifier, root.text != "self", root.text != "strongSelf",
                let declaration = localDeclaration(of: root.text, before: site.start)
            {
                return IdentifierBinding(
                    name: root.text,
                    written: written,
                    storage: .local(scope: syntax.scope(containing: declaration)),
                    declaration: declaration,
                    isOptional: false,
                    isBlockQualified: !syntax.isSwift && objectiveCDeclarationIsBlockQualified(nameToken: declaration)
                )
            }
            return IdentifierBinding.property(name: name, written: written)
        }
        // A plain `x = …`: a local when a declaration of `x` is in scope, otherwise a property or global.
        let plain = syntax.tokens[nameEnd - 1].text
        if let declaration = localDeclaration(of: plain, before: site.start) {
            return IdentifierBinding(
                name: name,
                written: plain,
                storage: .local(scope: syntax.scope(containing: declaration)),
                declaration: declaration,
                isOptional: syntax.isSwift && swiftDeclarationIsOptional(nameToken: declaration),
                isBlockQualified: !syntax.isSwift && objectiveCDeclarationIsBlockQualified(nameToken: declaration)
            )
        }
        return IdentifierBinding.property(name: name, written: written)
    }

    /// In `var task: UIBackgroundTaskIdentifier? = …`, the `:` before the type.
    private func swiftAnnotationColon(before equals: Int) -> Int? {
        var position = equals - 1
        var steps = 0
        let line = syntax.tokens[equals].line
        while position > 1, steps < 16, syntax.tokens[position].line == line {
            let token = syntax.tokens[position]
            if token.is(":") {
                let keyword = syntax.tokens[position - 2]
                return keyword.isIdentifier("let") || keyword.isIdentifier("var") ? position : nil
            }
            if token.is(";") || token.is("{") || token.is("}") || token.is("(") || token.is(",") { return nil }
            if let open = syntax.partner(of: position), token.is(")") || token.is("]") || token.is(">") {
                position = open
            }
            position -= 1
            steps += 1
        }
        return nil
    }

    /// The declaration of local `name` visible at `index`: in an enclosing function, accessor or closure,
    /// or among their parameters.
    func localDeclaration(of name: String, before index: Int) -> Int? {
        let chain = syntax.scopeChain(from: syntax.scope(containing: index))
        var outermost: Int?
        for scope in chain {
            if syntax.scopes[scope].kind == .type { break }
            outermost = scope
        }
        guard let outermost else { return macroDeclaration(of: name, before: index) }
        let visible = Set(chain)
        let bodyStart = syntax.scopes[outermost].open
        let headerStart = parameterStart(of: syntax.scopes[outermost])
        var position = index - 1
        while position > headerStart {
            if syntax.tokens[position].isIdentifier(name) {
                let isHeader = position < bodyStart || isInClosureHeader(position)
                if isDeclaration(at: position, inHeader: isHeader) {
                    let scope = syntax.scope(containing: position)
                    if position < bodyStart || scope.map(visible.contains) == true { return position }
                }
            }
            position -= 1
        }
        return nil
    }

    /// Objective-C: the declaration of `name` earlier in the same `#define` (a macro's variable is a
    /// local where the macro is used: `#define START() UIBackgroundTaskIdentifier t = …; t = [app begin…]`).
    private func macroDeclaration(of name: String, before index: Int) -> Int? {
        guard !syntax.isSwift else { return nil }
        var position = index - 1
        while position > 0, position > index - 64 {
            if syntax.tokens[position].isIdentifier("define"), syntax.tokens[position - 1].is("#") {
                for candidate in (position + 1)..<index
                where syntax.tokens[candidate].isIdentifier(name) && isDeclaration(at: candidate, inHeader: false) {
                    return candidate
                }
                return nil
            }
            position -= 1
        }
        return nil
    }

    /// Where a function's header begins (`func`, `init`, an Objective-C `-`/`+`), so its parameters
    /// count as locals; for other scopes, the brace.
    private func parameterStart(of scope: Scope) -> Int {
        guard scope.kind == .function else { return scope.open }
        var position = scope.open - 1
        var steps = 0
        while position > 0, steps < 128 {
            let token = syntax.tokens[position]
            if token.is(";") || token.is("}") || token.is("{") { break }
            if syntax.isSwift, ["func", "init", "deinit", "subscript"].contains(token.text), token.kind == .identifier {
                return position
            }
            if !syntax.isSwift, token.kind == .operator, token.text == "-" || token.text == "+",
                syntax.tokens[position - 1].line < token.line
            {
                return position
            }
            position -= 1
            steps += 1
        }
        return max(position, -1)
    }

    /// Swift `{ task, other in` or `{ [weak self] (task: T) in`: a closure's parameter list.
    private func isInClosureHeader(_ position: Int) -> Bool {
        guard syntax.isSwift, let scope = syntax.scope(containing: position), syntax.scopes[scope].kind == .closure
        else { return false }
        var cursor = position + 1
        while cursor < syntax.scopes[scope].close, cursor < position + 24 {
            let token = syntax.tokens[cursor]
            if token.isIdentifier("in") { return true }
            if token.is("{") || token.is("}") || token.is("=") || token.is(";") { return false }
            cursor += 1
        }
        return false
    }

    private func isDeclaration(at position: Int, inHeader: Bool) -> Bool {
        guard let previous = syntax.token(position - 1), let next = syntax.token(position + 1) else { return false }
        if previous.is(".") || previous.is("->") { return false }
        if syntax.isSwift {
            if previous.isIdentifier("let") || previous.isIdentifier("var") { return true }
            // A parameter: `task: UIBackgroundTaskIdentifier`, `_ task:`, or a closure's `task in`.
            return inHeader
                && (next.is(":") || next.is(",") || next.is(")") || next.isIdentifier("in"))
                && (previous.is("(") || previous.is(",") || previous.kind == .identifier || previous.is("{"))
        }
        let declares = previous.kind == .identifier || (previous.kind == .operator && previous.text.hasSuffix("*"))
        guard declares, !previous.isIdentifier("return") else { return false }
        return next.is("=") || next.is(";") || next.is(",") || next.is(")")
    }

    private func swiftDeclarationIsOptional(nameToken: Int) -> Bool {
        var position = nameToken + 1
        let line = syntax.tokens[nameToken].line
        while position < syntax.tokens.count, syntax.tokens[position].line == line {
            let token = syntax.tokens[position]
            if token.kind == .operator, token.text.hasPrefix("?") || token.text.hasPrefix("!") { return true }
            if token.kind == .operator, token.text == "=" {
                return syntax.token(position + 1)?.isIdentifier("nil") == true
            }
            if token.is(";") || token.is("{") { break }
            position += 1
        }
        return false
    }

    private func objectiveCDeclarationIsBlockQualified(nameToken: Int) -> Bool {
        var position = nameToken - 1
        while position >= 0, position >= nameToken - 6 {
            let token = syntax.tokens[position]
            if token.isIdentifier("__block") { return true }
            if token.is(";") || token.is("{") || token.is("}") { return false }
            position -= 1
        }
        return false
    }
}
