/// Recognizes Swift calls of the system's background-task APIs.
struct SwiftCallParser {
    let syntax: SourceSyntax
    /// The code base's own shims and look-alikes.
    var vocabulary = ProjectVocabulary()

    private static let beginLabels: Set<String> = ["withName", "expirationHandler"]
    private static let activityLabels: Set<String> = ["withReason", "using"]

    /// One argument: its label (if any) and its tokens.
    struct ParsedArgument {
        var label: String?
        var tokens: Range<Int>
    }

    func callSite(at index: Int) -> CallSite? {
        let kind: CallSite.Kind
        var shim: ProjectVocabulary.Shim?
        let text = syntax.tokens[index].text
        switch text {
        case "beginBackgroundTask": kind = .begin
        case "endBackgroundTask": kind = .end
        case "performExpiringActivity": kind = .expiringActivity
        default:
            if let begin = vocabulary.beginShims[text] {
                (kind, shim) = (.begin, begin)
            } else if let end = vocabulary.endShims[text] {
                (kind, shim) = (.end, end)
            } else {
                return nil
            }
        }
        if let previous = syntax.token(index - 1), previous.isIdentifier("func") { return nil }
        guard let next = syntax.token(index + 1) else { return nil }

        var arguments: [ParsedArgument] = []
        var end = index
        var trailingClosure: Int?
        if next.is("(") {
            guard let close = syntax.partner(of: index + 1) else { return nil }
            arguments = Self.split(syntax, from: index + 2, to: close)
            if isReference(arguments) { return nil }
            end = close
            if let brace = syntax.token(close + 1), brace.is("{"), let scope = syntax.scope(openedAt: close + 1),
                syntax.scopes[scope].kind == .closure
            {
                trailingClosure = scope
                end = syntax.scopes[scope].close
            }
        } else if next.is("{"), let scope = syntax.scope(openedAt: index + 1) {
            trailingClosure = scope
            end = syntax.scopes[scope].close
        } else {
            return nil
        }

        let start = ReceiverScanner(syntax: syntax).expressionStart(endingAt: index)
        if let shim {
            return shimCall(kind, shim, at: index, start: start, end: end, arguments, trailingClosure: trailingClosure)
        }
        switch kind {
        case .begin:
            // The code base's own `beginBackgroundTask()`, not UIKit's.
            if vocabulary.declaresZeroArgumentBegin, arguments.isEmpty, trailingClosure == nil { return nil }
            guard arguments.allSatisfy({ $0.label.map(Self.beginLabels.contains) ?? false }) else { return nil }
            let name = arguments.first { $0.label == "withName" }
            let handler = arguments.first { $0.label == "expirationHandler" }
            return CallSite(
                kind: .begin,
                nameToken: index,
                start: start,
                end: end,
                name: name.map { value(of: $0.tokens) } ?? .absent,
                handler: trailingClosure.map { .closure(scope: $0) } ?? handler.map { value(of: $0.tokens) } ?? .absent,
                endArgument: nil,
                isShimCall: vocabulary.declaresSameNameBegin && !isOnApplication(receiverFrom: start, to: index)
            )
        case .end:
            guard arguments.count == 1, arguments[0].label == nil, trailingClosure == nil else { return nil }
            return CallSite(
                kind: .end,
                nameToken: index,
                start: start,
                end: end,
                name: .absent,
                handler: .absent,
                endArgument: arguments[0].tokens
            )
        case .expiringActivity:
            guard arguments.first?.label == "withReason",
                arguments.allSatisfy({ $0.label.map(Self.activityLabels.contains) ?? false })
            else { return nil }
            let block = arguments.first { $0.label == "using" }
            return CallSite(
                kind: .expiringActivity,
                nameToken: index,
                start: start,
                end: end,
                name: value(of: arguments[0].tokens),
                handler: trailingClosure.map { .closure(scope: $0) } ?? block.map { value(of: $0.tokens) } ?? .absent,
                endArgument: nil
            )
        }
    }

    /// A call of one of the code base's shims, when its labels fit the shim's parameters.
    private func shimCall(
        _ kind: CallSite.Kind,
        _ shim: ProjectVocabulary.Shim,
        at index: Int,
        start: Int,
        end: Int,
        _ arguments: [ParsedArgument],
        trailingClosure: Int?
    ) -> CallSite? {
        // Match the arguments to the parameters in order; parameters with defaults may be skipped.
        var matched: [Int: Range<Int>] = [:]
        var piece = 0
        for argument in arguments {
            while piece < shim.pieces.count, shim.pieces[piece] != argument.label { piece += 1 }
            guard piece < shim.pieces.count else { return nil }
            matched[piece] = argument.tokens
            piece += 1
        }
        var site = CallSite(
            kind: kind,
            nameToken: index,
            start: start,
            end: end,
            name: .absent,
            handler: .absent,
            endArgument: nil,
            isShimCall: true
        )
        switch kind {
        case .begin:
            if let handlerIndex = shim.argumentIndex {
                if let tokens = matched[handlerIndex] {
                    site.handler = value(of: tokens)
                } else if let trailingClosure, handlerIndex == shim.pieces.count - 1 {
                    site.handler = .closure(scope: trailingClosure)
                }
            }
            if let nameIndex = shim.nameIndex, let tokens = matched[nameIndex] { site.name = value(of: tokens) }
        case .end:
            guard trailingClosure == nil, let argumentIndex = shim.argumentIndex,
                let tokens = matched[argumentIndex]
            else { return nil }
            site.endArgument = tokens
        case .expiringActivity:
            return nil
        }
        return site
    }

    /// Whether the call's receiver reads as the application (`UIApplication.shared.`, `application.`, `app?.`), or it
    /// has none (a method of a `UIApplication` extension): otherwise it may be the code base's method of the same name.
    private func isOnApplication(receiverFrom start: Int, to name: Int) -> Bool {
        guard start < name - 1 else { return true }
        let words = syntax.tokens[start..<(name - 1)].filter { $0.kind == .identifier }.map { $0.text.lowercased() }
        guard let last = words.last else { return true }
        return words.contains { $0.containsASCII("application") } || last == "app" || last.hasSuffix("app")
            || last == "shared" && words.count == 1
    }

    /// `beginBackgroundTask(withName:expirationHandler:)` names the method without calling it.
    private func isReference(_ arguments: [ParsedArgument]) -> Bool {
        !arguments.isEmpty && arguments.allSatisfy { $0.label != nil && $0.tokens.isEmpty }
    }

    /// What an argument's tokens amount to.
    func value(of range: Range<Int>) -> CallSite.Argument {
        guard let first = range.first, let last = range.last else { return .absent }
        let firstToken = syntax.tokens[first]
        if range.count == 1, firstToken.isIdentifier("nil") { return .nilLiteral }
        if range.count == 1, firstToken.kind == .string, firstToken.text == "\"\"" { return .emptyString }
        if firstToken.is("{"), syntax.partner(of: first) == last, let scope = syntax.scope(openedAt: first) {
            return .closure(scope: scope)
        }
        return .expression(range)
    }

    /// Splits `open+1 ..< close` at top-level commas into labelled arguments.
    static func split(_ syntax: SourceSyntax, from start: Int, to close: Int) -> [ParsedArgument] {
        var arguments: [ParsedArgument] = []
        var position = start
        var argumentStart = start
        func finish(at end: Int) {
            guard end > argumentStart else { return }
            var label: String?
            var valueStart = argumentStart
            if end - argumentStart >= 2, syntax.tokens[argumentStart].kind == .identifier,
                syntax.tokens[argumentStart + 1].is(":")
            {
                label = syntax.tokens[argumentStart].text
                valueStart = argumentStart + 2
            }
            arguments.append(ParsedArgument(label: label, tokens: valueStart..<end))
        }
        while position < close {
            let token = syntax.tokens[position]
            if token.is("(") || token.is("[") || token.is("{"), let partner = syntax.partner(of: position),
                partner < close
            {
                position = partner + 1
                continue
            }
            if token.is(",") {
                finish(at: position)
                argumentStart = position + 1
            }
            position += 1
        }
        finish(at: close)
        return arguments
    }
}
