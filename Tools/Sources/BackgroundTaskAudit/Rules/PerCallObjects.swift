/// A per-call owner: a `private` (or `fileprivate`) Swift type whose begin method this file only ever calls
/// on an object it has just made (`let assertion = BackgroundTaskAssertion(); assertion.begin(name: name)`).
/// Each run has its own object, so a second begin cannot overwrite a live identifier (BT005); and when the
/// function that made it also ends through it afterwards (`assertion.end()`), the object outlives its task,
/// so a `[weak self]` in the handler is not one that can be gone while the task is live (BT004).
extension FileAnalysis {
    /// Whether the begin's method belongs to a per-call owner; with `endedByCreator`, also that each function
    /// that makes one ends through it after the begin.
    func isPerCallOwner(_ site: CallSite, endedByCreator: Bool) -> Bool {
        guard syntax.isSwift, let function = syntax.namedFunction(containing: site.nameToken),
            syntax.scopes[function].kind == .function, let full = syntax.scopes[function].name,
            let type = enclosingClassName(of: function), isFilePrivateType(type)
        else { return false }
        let name = String(full.prefix { $0 != ":" })
        guard name != "init" else { return false }
        var calls = 0
        for index in syntax.tokens.indices where syntax.tokens[index].isIdentifier(name) {
            guard syntax.token(index + 1)?.is("(") == true, syntax.token(index - 1)?.isIdentifier("func") != true
            else { continue }
            // Another type's method of the same name (`SafeBackgroundTask.begin(…)`) is not this one.
            if syntax.token(index - 1)?.is(".") == true, let receiver = syntax.token(index - 2),
                receiver.kind == .identifier, receiver.text.first?.isUppercase == true, receiver.text != type
            {
                continue
            }
            // Only `local.begin(` where `local` was made from the type in the same function.
            guard syntax.token(index - 1)?.is(".") == true, let receiver = syntax.token(index - 2),
                receiver.kind == .identifier, let caller = syntax.namedFunction(containing: index),
                let made = madeLocal(receiver.text, of: type, in: caller, before: index)
            else { return false }
            if endedByCreator {
                let helpers = functionsThatEnd
                let region = syntax.scopes[caller]
                let ends = ((index + 1)..<region.close).contains { later in
                    syntax.tokens[later].isIdentifier(receiver.text) && syntax.token(later + 1)?.is(".") == true
                        && syntax.token(later + 2).map { helpers.contains($0.text) } == true
                }
                if !ends { return false }
            }
            _ = made
            calls += 1
        }
        return calls > 0
    }

    /// `private class Name`, `fileprivate final class Name`, `private struct Name` in this file.
    private func isFilePrivateType(_ type: String) -> Bool {
        syntax.tokens.indices.contains { index in
            guard syntax.tokens[index].isIdentifier(type), let keyword = syntax.token(index - 1),
                ["class", "struct", "actor"].contains(keyword.text)
            else { return false }
            let modifiers = syntax.tokens[max(0, index - 5)..<(index - 1)]
            return modifiers.contains { $0.isIdentifier("private") || $0.isIdentifier("fileprivate") }
        }
    }

    /// The declaration of `let name = Type(…)` (or `var`) in `function` before `index`.
    private func madeLocal(_ name: String, of type: String, in function: Int, before index: Int) -> Int? {
        let open = syntax.scopes[function].open
        return ((open + 1)..<index).last { position in
            guard syntax.tokens[position].isIdentifier(name),
                let keyword = syntax.token(position - 1), keyword.isIdentifier("let") || keyword.isIdentifier("var"),
                syntax.token(position + 1)?.is("=") == true
            else { return false }
            var value = position + 2
            while let token = syntax.token(value), token.isIdentifier("await") || token.isIdentifier("try") {
                value += 1
            }
            // Made here: `Type(…)` or `Type.init(…)`, not `Type.shared`.
            guard syntax.token(value)?.isIdentifier(type) == true else { return false }
            return syntax.token(value + 1)?.is("(") == true
                || (syntax.token(value + 1)?.is(".") == true && syntax.token(value + 2)?.isIdentifier("init") == true)
        }
    }
}
