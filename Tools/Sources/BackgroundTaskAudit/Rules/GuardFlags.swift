/// A one-at-a-time flag: a begin behind a check of a Boolean that the same function sets before the
/// begin, and that the file clears again (with the end):
///
///     guard !isSyncing else { return }
///     isSyncing = true
///     task = UIApplication.shared.beginBackgroundTask { … }
///
/// A second run returns at the check while the first one's task is live, so it cannot overwrite the
/// stored identifier, though the check never names the identifier.
extension FileAnalysis {
    /// The flags that keep a second run from reaching the begin: tested by a condition around the begin or
    /// by a `return` before it, set to true (`YES`) between that test and the begin (not in a closure that runs
    /// later), and set to false (`NO`) somewhere in the file.
    func guardFlags(of site: CallSite, in function: Int) -> Set<Substring> {
        var flags: Set<Substring> = []
        for condition in enclosingConditions(of: site.nameToken, within: function) {
            flags.formUnion(
                flagsSet(
                    testedIn: condition, setIn: Range(guarding: condition.upperBound, site.start), within: function))
        }
        let open = syntax.scopes[function].open
        for index in Range(guarding: open + 1, site.start) where syntax.tokens[index].isIdentifier("return") {
            guard
                let condition = exitCondition(of: index, within: function)
            else { continue }
            flags.formUnion(flagsSet(testedIn: condition, setIn: (index + 1)..<site.start, within: function))
        }
        guard !flags.isEmpty else { return [] }
        return flags.filter { flag in
            syntax.tokens.indices.contains { assignedFlag(at: $0, value: ["false", "NO"]) == flag }
        }
    }

    /// Whether `scope` sets one of `flags` to false (`NO`).
    func clearsFlag(_ flags: Set<Substring>, in scope: Int) -> Bool {
        let region = syntax.scopes[scope]
        return ((region.open + 1)..<region.close).contains { index in
            assignedFlag(at: index, value: ["false", "NO"]).map(flags.contains) ?? false
        }
    }

    private func flagsSet(testedIn condition: Range<Int>, setIn setRange: Range<Int>, within function: Int)
        -> Set<Substring>
    {
        guard !setRange.isEmpty else { return [] }
        let tested = Set(
            condition.compactMap { index -> Substring? in
                let token = syntax.tokens[index]
                guard token.kind == .identifier, !Self.flagNoise.contains(token.text) else { return nil }
                return token.text.drop { $0 == "_" }
            })
        guard !tested.isEmpty else { return [] }
        return Set(
            setRange.compactMap { index -> Substring? in
                guard let name = assignedFlag(at: index, value: ["true", "YES"]), tested.contains(name),
                    deferringClosure(of: index, within: function) == nil
                else { return nil }
                return name
            })
    }

    /// The flag `index` assigns one of `value` to (`flag = true`, `self.flag = YES`, `_flag = YES;`).
    private func assignedFlag(at index: Int, value: Set<String>) -> Substring? {
        let token = syntax.tokens[index]
        guard token.kind == .identifier, let equals = syntax.token(index + 1), equals.kind == .operator,
            equals.text == "=", let assigned = syntax.token(index + 2), value.contains(assigned.text)
        else { return nil }
        return token.text.drop { $0 == "_" }
    }

    private static let flagNoise: Set<String> = [
        "self", "guard", "if", "else", "return", "let", "var", "true", "false", "YES", "NO", "nil", "isEmpty",
    ]
}
