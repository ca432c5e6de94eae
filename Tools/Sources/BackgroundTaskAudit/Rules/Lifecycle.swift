/// Which app transition code runs in: entering the background or returning to the foreground, by the
/// name of its function (`applicationDidEnterBackground`, `sceneWillEnterForeground`) or of the `case` of a
/// notification switch it is in (`case UIApplication.didEnterBackgroundNotification:`).
enum Lifecycle: Equatable {
    case background, foreground

    private static func of(name: String) -> Lifecycle? {
        let lowered = name.lowercased()
        if lowered.containsASCII("enterbackground") || lowered.containsASCII("movetobackground") { return .background }
        if lowered.containsASCII("enterforeground") || lowered.containsASCII("toforeg")
            || lowered.containsASCII("becomeactive")
        {
            return .foreground
        }
        return nil
    }

    /// The transition the token runs in: its `case` label in a switch, or else its function's name.
    static func at(_ token: Int, in function: Int, _ analysis: FileAnalysis) -> Lifecycle? {
        let syntax = analysis.syntax
        if let label = caseLabel(of: token, within: function, syntax), let found = of(name: label) { return found }
        return syntax.scopes[function].name.flatMap(of(name:))
    }

    /// The transition a function runs in: its name, or — for a private Swift helper — that of every call of it
    /// in this type's code.
    static func of(_ function: Int, _ analysis: FileAnalysis) -> Lifecycle? {
        let syntax = analysis.syntax
        guard let full = syntax.scopes[function].name else { return nil }
        if let found = of(name: full) { return found }
        guard syntax.isSwift, ProjectVocabulary.isPrivate(declaredBefore: syntax.scopes[function].open, syntax) else {
            return nil
        }
        let name = String(full.prefix { $0 != ":" })
        let calls = syntax.scopes.indices.filter { $0 != function && syntax.scopes[$0].kind == .function }
            .flatMap { analysis.helperEndCalls(in: $0, helpers: [name]) }
        let found = Set(
            calls.map { call in syntax.namedFunction(containing: call).flatMap { at(call, in: $0, analysis) } })
        guard found.count == 1, let only = found.first else { return nil }
        return only
    }

    /// The text of the `case` label the token is under, in the innermost `switch` around it below `function`.
    private static func caseLabel(of token: Int, within function: Int, _ syntax: SourceSyntax) -> String? {
        guard
            let switchScope = syntax.scopeChain(from: syntax.scope(containing: token)).first(where: {
                syntax.scopes[$0].kind == .control && syntax.scopes[$0].name == "switch"
            }), syntax.scope(switchScope, isWithin: function)
        else { return nil }
        let region = syntax.scopes[switchScope]
        guard
            let label = ((region.open + 1)..<token).last(where: {
                syntax.tokens[$0].isIdentifier("case") && syntax.scope(containing: $0) == switchScope
            })
        else { return nil }
        var end = label + 1
        while end < token, !syntax.tokens[end].is(":") { end += 1 }
        return syntax.text((label + 1)..<end)
    }
}
