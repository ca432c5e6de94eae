/// Recognizes Objective-C message sends of the system's background-task APIs.
struct ObjectiveCCallParser {
    let syntax: SourceSyntax
    /// The code base's own shims.
    var vocabulary = ProjectVocabulary()

    /// The selectors, as the keyword pieces each must have, in order.
    private static let selectors: [String: (CallSite.Kind, [String])] = [
        "beginBackgroundTaskWithName": (.begin, ["beginBackgroundTaskWithName", "expirationHandler"]),
        "beginBackgroundTaskWithExpirationHandler": (.begin, ["beginBackgroundTaskWithExpirationHandler"]),
        "endBackgroundTask": (.end, ["endBackgroundTask"]),
        "performExpiringActivityWithReason": (.expiringActivity, ["performExpiringActivityWithReason", "usingBlock"]),
    ]

    /// The selector `index` starts, if it is the system's or one of the code base's shims.
    private func selector(at index: Int) -> (CallSite.Kind, [String], ProjectVocabulary.Shim?)? {
        let text = syntax.tokens[index].text
        if let (kind, pieces) = Self.selectors[text] { return (kind, pieces, nil) }
        if let shim = vocabulary.beginShims[text] { return (.begin, shim.pieces.compactMap { $0 }, shim) }
        if let shim = vocabulary.endShims[text] { return (.end, shim.pieces.compactMap { $0 }, shim) }
        return nil
    }

    func callSite(at index: Int) -> CallSite? {
        guard let (kind, pieces, shim) = selector(at: index),
            let colon = syntax.token(index + 1), colon.is(":"),
            let open = messageOpen(before: index), open < index - 1,
            let close = syntax.partner(of: open)
        else { return nil }

        // Split the message into keyword parts at the top level: `piece: value piece: value`.
        var parts: [(name: String, value: Range<Int>)] = []
        var position = index
        var partName = syntax.tokens[index].text
        var valueStart = index + 2
        position = index + 2
        while position < close {
            let token = syntax.tokens[position]
            if token.is("(") || token.is("[") || token.is("{"), let partner = syntax.partner(of: position),
                partner < close
            {
                position = partner + 1
                continue
            }
            if token.kind == .identifier, position + 1 < close, syntax.tokens[position + 1].is(":"),
                position > valueStart
            {
                parts.append((partName, valueStart..<position))
                partName = token.text
                valueStart = position + 2
                position += 2
                continue
            }
            position += 1
        }
        parts.append((partName, valueStart..<close))
        guard parts.map(\.name) == pieces else { return nil }

        let start = open
        if let shim {
            var site = CallSite(
                kind: kind,
                nameToken: index,
                start: start,
                end: close,
                name: .absent,
                handler: .absent,
                endArgument: nil,
                isShimCall: true
            )
            if kind == .begin {
                if let handler = shim.argumentIndex, handler < parts.count {
                    site.handler = value(of: parts[handler].value)
                }
                if let name = shim.nameIndex, name < parts.count { site.name = value(of: parts[name].value) }
            } else if let argument = shim.argumentIndex, argument < parts.count {
                site.endArgument = parts[argument].value
            } else {
                return nil
            }
            return site
        }
        switch kind {
        case .begin:
            let hasName = pieces.count == 2
            return CallSite(
                kind: .begin,
                nameToken: index,
                start: start,
                end: close,
                name: hasName ? value(of: parts[0].value) : .absent,
                handler: value(of: parts[parts.count - 1].value),
                endArgument: nil
            )
        case .end:
            return CallSite(
                kind: .end,
                nameToken: index,
                start: start,
                end: close,
                name: .absent,
                handler: .absent,
                endArgument: parts[0].value
            )
        case .expiringActivity:
            return CallSite(
                kind: .expiringActivity,
                nameToken: index,
                start: start,
                end: close,
                name: value(of: parts[0].value),
                handler: value(of: parts[1].value),
                endArgument: nil
            )
        }
    }

    /// The `[` of the message send that `index` is the selector of, or `nil` when it is not in one
    /// (a method declaration, `@selector(…)`).
    private func messageOpen(before index: Int) -> Int? {
        var position = index - 1
        while position >= 0, position > index - 256 {
            let token = syntax.tokens[position]
            if token.is("]") || token.is(")"), let open = syntax.partner(of: position) {
                position = open - 1
                continue
            }
            if token.is("[") { return position }
            if token.is("(") || token.is("{") || token.is("}") || token.is(";") || token.is("]") || token.is(")") {
                return nil
            }
            if token.is(":") || token.is(",") { return nil }
            position -= 1
        }
        return nil
    }

    /// What an argument's tokens amount to.
    func value(of range: Range<Int>) -> CallSite.Argument {
        guard let first = range.first, let last = range.last else { return .absent }
        let firstToken = syntax.tokens[first]
        if range.count == 1, ["nil", "NULL", "Nil"].contains(firstToken.text), firstToken.kind == .identifier {
            return .nilLiteral
        }
        if range.count == 1, firstToken.kind == .string, firstToken.text == "\"\"" { return .emptyString }
        if firstToken.is("^"), syntax.tokens[last].is("}"), let open = syntax.partner(of: last),
            let scope = syntax.scope(openedAt: open)
        {
            return .closure(scope: scope)
        }
        return .expression(range)
    }
}
