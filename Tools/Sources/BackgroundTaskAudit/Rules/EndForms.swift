/// Which variable an end names when a local shadows a property of the same name (`var task` in a method of a
/// type with a `task` property): `self.task` is the property, a bare `task` the local. Without telling them
/// apart, a local's begin would be matched with the property's ends, and the findings would name the wrong line.
enum EndForms {
    /// The ends whose argument is a member of `self` (`self.task`, `self->_task`, `weakSelf.task`): never a local's.
    /// And the ends whose argument is a bare name declared, before the end, as a local or parameter of the
    /// function around it — not a copy of the property (`guard let task = self.task` is the same identifier):
    /// never the property's.
    static func classify(_ ends: [CallSite], in syntax: SourceSyntax) -> (
        selfMembers: Set<Int>, shadowed: [Int: String]
    ) {
        var selfMembers: Set<Int> = []
        var shadowed: [Int: String] = [:]
        // Per function, once: its parameters and where each other local is first declared.
        var locals: [Int: [String: Int]] = [:]
        for end in ends {
            guard let argument = end.endArgument,
                let last = argument.last(where: { syntax.tokens[$0].kind == .identifier })
            else { continue }
            let identifiers = argument.filter { syntax.tokens[$0].kind == .identifier }
            if identifiers.count >= 2, SourceSyntax.namesSelf(syntax.tokens[identifiers[0]].text) {
                selfMembers.insert(end.nameToken)
                continue
            }
            guard identifiers.count == 1, let function = syntax.namedFunction(containing: end.nameToken) else {
                continue
            }
            if locals[function] == nil { locals[function] = declaredLocals(of: function, syntax) }
            let name = syntax.tokens[last].text
            if let declared = locals[function]?[name], declared < end.nameToken { shadowed[end.nameToken] = name }
        }
        return (selfMembers, shadowed)
    }

    /// The function's parameters (at its start) and its other locals — `var name` / `let name` (Swift),
    /// `UIBackgroundTaskIdentifier name` (Objective-C) not initialized from the property (`= self.name`, `= name`)
    /// and not the shorthand `if let name` — each at its first declaration.
    private static func declaredLocals(of function: Int, _ syntax: SourceSyntax) -> [String: Int] {
        let region = syntax.scopes[function]
        var locals: [String: Int] = [:]
        for parameter in ForwardedArguments(syntax: syntax).signature(of: function)?.parameters ?? [] {
            locals[parameter] = region.open
        }
        for index in (region.open + 1)..<region.close where syntax.tokens[index].kind == .identifier {
            let name = syntax.tokens[index].text
            guard locals[name] == nil, let previous = syntax.token(index - 1) else { continue }
            let declares =
                syntax.isSwift
                ? previous.isIdentifier("var") || previous.isIdentifier("let")
                : previous.isIdentifier("UIBackgroundTaskIdentifier")
            guard declares else { continue }
            var cursor = index + 1
            // Over a type annotation to the `=`, on the same line.
            while let token = syntax.token(cursor), token.line == syntax.tokens[index].line, !token.is("="),
                !token.is("{"), !token.is(";"), !token.is(",")
            {
                cursor += 1
            }
            guard let equals = syntax.token(cursor), equals.is("=") else {
                // `if let task {`, `guard let task else`: the shorthand unwraps the property itself.
                if syntax.token(index + 1)?.is("{") == true || syntax.token(index + 1)?.isIdentifier("else") == true {
                    continue
                }
                locals[name] = index
                continue
            }
            // A copy of the property (`= self.name`, `= name`, `= self?.name`) is the same identifier.
            let value = ((cursor + 1)..<min(cursor + 5, syntax.tokens.count)).prefix {
                syntax.tokens[$0].line == equals.line
            }
            if !value.contains(where: { syntax.tokens[$0].isIdentifier(name) }) { locals[name] = index }
        }
        return locals
    }
}
