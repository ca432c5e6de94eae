extension FileAnalysis {
    /// The first token of a closure's statements: after `[weak self] (x: T) in` in Swift, after the
    /// `{` otherwise.
    func bodyStart(of scope: Int) -> Int {
        let region = syntax.scopes[scope]
        guard syntax.isSwift, region.kind == .closure else { return region.open + 1 }
        var position = region.open + 1
        if let first = syntax.token(position), first.is("["), let close = syntax.partner(of: position) {
            position = close + 1
        }
        var cursor = position
        while cursor < region.close, cursor < position + 32 {
            let token = syntax.tokens[cursor]
            if token.isIdentifier("in") { return cursor + 1 }
            if token.is("{") || token.is(";") || token.is("=") || token.kind == .string || token.is("}") { break }
            if token.is("(") || token.is("["), let close = syntax.partner(of: cursor) {
                cursor = close + 1
                continue
            }
            // A newline before any `in` means the closure has no signature.
            if cursor > region.open + 1, token.line != syntax.tokens[cursor - 1].line { break }
            cursor += 1
        }
        return syntax.tokens[position - 1].is("]") ? position : region.open + 1
    }

    /// Whether the closure has no statements.
    func isEmptyClosure(_ scope: Int) -> Bool {
        (bodyStart(of: scope)..<syntax.scopes[scope].close).allSatisfy { syntax.tokens[$0].is(";") }
    }

    /// Names a Swift capture list makes `weak`: `[weak self, weak owner]` → `["self", "owner"]`.
    func weakCaptures(of scope: Int) -> Set<String> {
        let region = syntax.scopes[scope]
        guard syntax.isSwift, let first = syntax.token(region.open + 1), first.is("["),
            let close = syntax.partner(of: region.open + 1)
        else { return [] }
        var names: Set<String> = []
        for index in (region.open + 2)..<close where syntax.tokens[index].isIdentifier("weak") {
            if let name = syntax.token(index + 1), name.kind == .identifier { names.insert(name.text) }
        }
        return names
    }

    /// Names a Swift capture list copies by value: `[task, weak self]` → `["task"]`.
    func valueCaptures(of scope: Int) -> Set<String> {
        let region = syntax.scopes[scope]
        guard syntax.isSwift, let first = syntax.token(region.open + 1), first.is("["),
            let close = syntax.partner(of: region.open + 1)
        else { return [] }
        var names: Set<String> = []
        for index in (region.open + 2)..<close where syntax.tokens[index].kind == .identifier {
            let previous = syntax.tokens[index - 1]
            let next = syntax.tokens[index + 1]
            let isModifier = ["weak", "unowned", "safe", "unsafe"].contains(syntax.tokens[index].text)
            guard !isModifier, previous.is("[") || previous.is(","), next.is(",") || next.is("]") else { continue }
            names.insert(syntax.tokens[index].text)
        }
        return names
    }

    /// Objective-C variables declared `__weak` (or `__unsafe_unretained`) in the function around `index`.
    func weakVariables(around index: Int) -> Set<String> {
        guard !syntax.isSwift, let function = syntax.namedFunction(containing: index) else { return [] }
        let region = syntax.scopes[function]
        var names: Set<String> = []
        var position = region.open + 1
        while position < min(region.close, syntax.tokens.count) {
            let token = syntax.tokens[position]
            if token.isIdentifier("__weak") || token.isIdentifier("__unsafe_unretained") || token.isIdentifier("weak") {
                var cursor = position + 1
                while cursor < region.close, cursor < position + 12, !syntax.tokens[cursor].is(";") {
                    if syntax.tokens[cursor].kind == .operator, syntax.tokens[cursor].text == "=" {
                        // A weak reference to the application lives as long as the process does.
                        if let name = syntax.token(cursor - 1), name.kind == .identifier,
                            !isApplicationReference(after: cursor)
                        {
                            names.insert(name.text)
                        }
                        break
                    }
                    cursor += 1
                }
            }
            position += 1
        }
        return names
    }

    /// Whether the expression after the `=` at `equals` ends in the application object
    /// (`self.application`, `[UIApplication sharedApplication]`, `GDTCORApplication.sharedApplication`).
    private func isApplicationReference(after equals: Int) -> Bool {
        var index = equals + 1
        var last: String?
        while let token = syntax.token(index), !token.is(";"), index < equals + 16 {
            if token.kind == .identifier { last = token.text }
            index += 1
        }
        guard let last else { return false }
        return last.hasSuffix("pplication") || last == "app"
    }

    /// Whether the variable `name` appears in `range` in any spelling: `task`, `self.task`, `_task`,
    /// `self->_task` (unlike ``mentions(_:in:)``, a member after `.` counts).
    func mentionsVariable(_ name: String, in range: Range<Int>) -> Bool {
        range.contains { index in
            let token = syntax.tokens[index]
            return token.kind == .identifier && token.text.drop { $0 == "_" } == name
        }
    }

    /// Whether `range` reads the variable `name` (leading underscores aside): mentions it other than as the
    /// target of a plain assignment (`task = .invalid` only writes it).
    func readsVariable(_ name: String, in range: Range<Int>) -> Bool {
        range.contains { index in
            let token = syntax.tokens[index]
            guard token.kind == .identifier, token.text.drop(while: { $0 == "_" }) == name else { return false }
            guard let next = syntax.token(index + 1) else { return true }
            return !(next.kind == .operator && next.text == "=")
        }
    }

    /// Whether `name` appears as a plain identifier (not as a member after `.` or `->`) in `range`.
    func mentions(_ name: String, in range: Range<Int>) -> Bool {
        range.contains { index in
            guard syntax.tokens[index].isIdentifier(name) else { return false }
            guard let previous = syntax.token(index - 1) else { return true }
            return !previous.is(".") && !previous.is("->")
        }
    }

    /// A manager's begin for a task object it was given: the handler calls that object's handler
    /// (`task.expirationHandler(task)`, `job.expirationHandler?()`), so it is the caller's handler passed on.
    func callsParametersHandler(_ site: CallSite) -> Bool {
        guard let handler = handlerScope(of: site), let function = syntax.namedFunction(containing: site.nameToken),
            let parameters = ForwardedArguments(syntax: syntax).signature(of: function)?.parameters, !parameters.isEmpty
        else { return false }
        let region = syntax.scopes[handler]
        return ((region.open + 1)..<region.close).contains { index in
            guard parameters.contains(syntax.tokens[index].text), syntax.token(index + 1)?.is(".") == true,
                let member = syntax.token(index + 2), member.kind == .identifier
            else { return false }
            let lowered = member.text.lowercased()
            guard lowered.containsASCII("handler") || lowered.containsASCII("completion") || lowered.hasSuffix("block")
            else {
                return false
            }
            var next = index + 3
            if let token = syntax.token(next), token.kind == .operator, token.text == "?" { next += 1 }
            return syntax.token(next)?.is("(") == true
        }
    }

    /// Whether the begin passes on its caller's handler: a parameter (``forwardsHandler(_:)``) or a task object's
    /// handler (``callsParametersHandler(_:)``). The handler that matters is the caller's.
    func passesOnCallersHandler(_ site: CallSite) -> Bool {
        forwardsHandler(site) || callsParametersHandler(site)
    }
}
