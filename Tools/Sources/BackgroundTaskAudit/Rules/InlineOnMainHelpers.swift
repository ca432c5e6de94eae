/// A project's own helper that runs a block at once when it is called on the main thread:
///
///     - (void)runOnMain:(dispatch_block_t)block {
///         if ([NSThread isMainThread]) block(); else dispatch_sync(dispatch_get_main_queue(), block);
///     }
///
/// An expiration handler runs on the main thread, so a block it hands to such a helper runs before the
/// handler returns: an end there is synchronous, not "only later".
extension FileAnalysis {
    /// Whether `closure` is passed to a same-file function that calls its block parameter directly — always, or
    /// on a branch that tests for the main thread (`isMainThread`).
    func runsInlineOnMain(closure: Int) -> Bool {
        inlineOnMainHelpers(of: closure).isEmpty == false
    }

    /// Whether `closure` is passed to such a helper that otherwise sends the block to the main queue
    /// (`dispatch_sync(dispatch_get_main_queue(), block)`): the block runs on the main thread whoever calls.
    func alwaysRunsOnMain(closure: Int) -> Bool {
        inlineOnMainHelpers(of: closure).contains { helper in
            let region = syntax.scopes[helper]
            return ((region.open + 1)..<region.close).contains { index in
                let text = syntax.tokens[index].text
                return text == "dispatch_get_main_queue" || text == "mainQueue"
                    || (text == "main" && syntax.token(index - 1)?.is(".") == true)
            }
        }
    }

    private func inlineOnMainHelpers(of closure: Int) -> [Int] {
        guard let name = timing(ofClosure: closure).callName, let helpers = functionScopes(named: name) else {
            return []
        }
        return helpers.filter { helper in
            guard let parameters = ForwardedArguments(syntax: syntax).signature(of: helper)?.parameters else {
                return false
            }
            let region = syntax.scopes[helper]
            return ((region.open + 1)..<region.close).contains { index in
                guard parameters.contains(syntax.tokens[index].text), syntax.token(index + 1)?.is("(") == true,
                    syntax.token(index - 1)?.is(".") != true, deferringClosure(of: index, within: helper) == nil
                else { return false }
                let conditions = enclosingConditions(of: index, within: helper)
                return conditions.isEmpty
                    || conditions.contains { condition in
                        condition.contains { syntax.tokens[$0].isIdentifier("isMainThread") }
                    }
            }
        }
    }

    /// The same-file functions named `name` (up to the first `:`), from a table made once per file.
    func functionScopes(named name: String) -> [Int]? {
        if let table = sharedAnswers.functionsByName { return table[name] }
        let table = Dictionary(
            grouping: syntax.scopes.indices.filter {
                syntax.scopes[$0].kind == .function && syntax.scopes[$0].name != nil
            },
            by: { String((syntax.scopes[$0].name ?? "").prefix { $0 != ":" }) })
        sharedAnswers.functionsByName = table
        return table[name]
    }
}
