/// A begin whose function hands the identifier to its caller (`return taskID`): the caller ends its own copy.
extension FileAnalysis {
    /// The `return` in the begin's function (not in a closure) that returns the stored identifier, if any.
    func returnOfIdentifier(_ site: CallSite, _ binding: IdentifierBinding) -> Int? {
        guard let function = syntax.namedFunction(containing: site.nameToken) else { return nil }
        let region = syntax.scopes[function]
        return Range(guarding: site.end + 1, region.close).first { index in
            guard syntax.tokens[index].isIdentifier("return"), syntax.executableScope(containing: index) == function
            else {
                return false
            }
            // `return taskID`, `return self.taskID`, `return _taskID;`: the identifier and nothing more.
            var end = index + 1
            while end < region.close, syntax.tokens[end].line == syntax.tokens[index].line, !syntax.tokens[end].is(";"),
                !syntax.tokens[end].is("}")
            {
                end += 1
            }
            let identifiers = ((index + 1)..<end).filter { syntax.tokens[$0].kind == .identifier }
            guard let last = identifiers.last, identifiers.count <= 2 else { return false }
            return syntax.tokens[last].text.drop { $0 == "_" } == binding.name
                && (identifiers.count == 1 || SourceSyntax.namesSelf(syntax.tokens[identifiers[0]].text))
        }
    }
}
