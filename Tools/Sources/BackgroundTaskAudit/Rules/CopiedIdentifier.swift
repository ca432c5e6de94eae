/// A local that holds a copy of a property's identifier, as in "copy, reset, then end the copy":
///
/// ```objc
/// UIBackgroundTaskIdentifier taskId = self.backgroundTaskIdentifier;
/// self.backgroundTaskIdentifier = UIBackgroundTaskInvalid;
/// [app endBackgroundTask:taskId];
/// ```
enum CopiedIdentifier {
    /// The property a local named `local` was copied from, earlier in the function or closure of
    /// the end at `end`, and whether that property was reset to invalid between the copy and the end.
    static func source(of local: String, endingAt end: Int, in syntax: SourceSyntax)
        -> (property: String, resetBeforeEnd: Bool)?
    {
        guard let scope = syntax.executableScope(containing: end) else { return nil }
        let open = syntax.scopes[scope].open
        var index = end - 1
        while index > open, index > end - 400 {
            defer { index -= 1 }
            let token = syntax.tokens[index]
            guard token.kind == .operator, token.text == "=", syntax.token(index - 1)?.isIdentifier(local) == true,
                syntax.executableScope(containing: index) == scope
            else { continue }
            // `local = self.task;`, `Type local = _task;`, `let local = self.task`: a member or ivar.
            var cursor = index + 1
            var last: Token?
            var isMember = false
            while let value = syntax.token(cursor), !value.is(";"), value.line == token.line, cursor < end {
                if value.is(".") || value.text == "->" { isMember = true }
                if value.kind == .identifier { last = value }
                guard value.kind == .identifier || value.is(".") || value.text == "->" else { return nil }
                cursor += 1
            }
            guard let last else { return nil }
            let property = String(last.text.drop { $0 == "_" })
            guard isMember || last.text.hasPrefix("_"), !property.isEmpty, property != local else { return nil }
            // A reset of the property between the copy and the end.
            var reset = false
            for between in cursor..<end
            where syntax.tokens[between].kind == .operator && syntax.tokens[between].text == "=" {
                guard let target = syntax.token(between - 1), target.kind == .identifier,
                    target.text.drop(while: { $0 == "_" }) == property
                else { continue }
                if InvalidValue.follows(between, in: syntax) { reset = true }
            }
            return (property, reset)
        }
        return nil
    }
}
