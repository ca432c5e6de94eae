/// BT001: a raw begin (or expiring activity) outside an allowed wrapper.
///
/// A call is inside a wrapper when its file matches an `--allow` glob, when the function it is
/// in is itself named `beginBackgroundTask…` or `performExpiringActivity…` and passes on a handler
/// it was given (an implementation of the same API; a helper of that name that takes no handler and
/// makes its own is an app's task, and reported), or when it passes on the handler of the function
/// or closure it is in (a shim:
/// `func beginBgTask(_ handler: …) { beginBackgroundTask { handler?() } }`). Calls of such shims
/// are not raw calls; the other rules check them like begins.
enum RawBeginRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT001",
        severity: .warning,
        summary: "Raw beginBackgroundTask or performExpiringActivity outside an allowed wrapper path"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        guard !analysis.isAllowedWrapperPath else { return [] }
        let syntax = analysis.syntax
        return analysis.sites.compactMap { site in
            guard site.kind != .end, !site.isShimCall, !isInsideWrapper(site, analysis),
                !analysis.passesOnCallersHandler(site), !handlerCallsAClosureParameter(site, analysis)
            else { return nil }
            let spelling = RuleText.spelling(site, in: syntax)
            if site.kind == .begin {
                return RuleHit(
                    token: site.nameToken,
                    message:
                        "Raw \(spelling) outside a wrapper: every path must end it exactly once, or iOS kills the app (0x8badf00d); use "
                        + "SafeBackgroundTask or withBackgroundTask, or --allow your own wrapper."
                )
            }
            return RuleHit(
                token: site.nameToken,
                message: "Raw \(spelling) outside a wrapper: the block must run until the work is done, or the "
                    + "process is suspended mid-work; use withBackgroundTask, or --allow your own wrapper."
            )
        }
    }

    /// Inside a function named like the API that passes on a handler it was given (``passesOnAHandler(_:in:_:)``),
    /// or a closure passed as an argument labelled so
    /// (`execute(beginBackgroundTask: { name, handler in … })`). A helper named `beginBackgroundTask…` whose handler
    /// is its own is an app's task, not a wrapper of the API.
    private static func isInsideWrapper(_ site: CallSite, _ analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        return syntax.scopeChain(from: syntax.scope(containing: site.nameToken)).contains { scope in
            let name: String?
            switch syntax.scopes[scope].kind {
            case .function:
                name = syntax.scopes[scope].name
                guard passesOnAHandler(site, in: scope, analysis) else { return false }
            case .closure: name = analysis.argumentLabel(ofClosure: scope)
            default: name = nil
            }
            guard let name else { return false }
            return name.hasPrefix("beginBackgroundTask") || name.hasPrefix("performExpiringActivity")
        }
    }

    /// A wrapper under any name (`-beginSafeBackgroundTaskWithExpirationHandler:`, `start(withExpirationHandler:)`):
    /// the function takes an expiration handler, and its handler calls it (`if (handler) handler();`, `handler?()`)
    /// among other things. The raw call is the wrapper's implementation.
    private static func handlerCallsAClosureParameter(_ site: CallSite, _ analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        guard let function = syntax.namedFunction(containing: site.nameToken), takesClosure(function, syntax),
            let signature = ForwardedArguments(syntax: syntax).signature(of: function),
            let handler = analysis.handlerScope(of: site)
        else { return false }
        // A parameter labelled as the expiration handler (`start(task:expirationHandler:)`) makes the function a
        // wrapper even when its handler runs the caller's later (through a table of stored handlers).
        if signature.pieces.contains(where: { $0?.containsASCII("expirationhandler") == true }) { return true }
        // Only an expiration handler the caller gives (`handler`, `…ExpirationHandler:`): a completion the app's
        // own task calls on expiry does not make its function a wrapper.
        let parameters = zip(signature.pieces, signature.parameters).compactMap { piece, parameter -> String? in
            let words = ((piece ?? "") + " " + parameter).lowercased()
            return words.containsASCII("expir") || parameter == "handler" ? parameter : nil
        }
        guard !parameters.isEmpty else { return false }
        let region = syntax.scopes[handler]
        return ((region.open + 1)..<region.close).contains { index in
            guard parameters.contains(syntax.tokens[index].text), syntax.token(index - 1)?.is(".") != true,
                var next = syntax.token(index + 1)
            else { return false }
            if next.kind == .operator, next.text == "?", let after = syntax.token(index + 2) { next = after }
            return next.is("(")
        }
    }

    /// Whether the begin inside a function named like the API passes on a handler that came from elsewhere: a
    /// handler expression that is not a local closure of this code (`expirationHandler: handler`), a closure
    /// that calls one of the function's parameters (`{ handler?() }`), or any handler when the function takes a
    /// closure (`expirationHandler:`, a block) that its handler reaches some other way (through a registry).
    private static func passesOnAHandler(_ site: CallSite, in function: Int, _ analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        switch site.handler {
        case .expression:
            if analysis.handlerScope(of: site) == nil { return true }
        case .closure:
            break
        default:
            return false
        }
        if takesClosure(function, syntax) { return true }
        guard let parameters = ForwardedArguments(syntax: syntax).signature(of: function)?.parameters,
            let handler = analysis.handlerScope(of: site)
        else { return false }
        let region = syntax.scopes[handler]
        return ((region.open + 1)..<region.close).contains { index in
            guard parameters.contains(syntax.tokens[index].text), var next = syntax.token(index + 1) else {
                return false
            }
            if next.kind == .operator, next.text == "?" || next.text == "!", let after = syntax.token(index + 2) {
                next = after
            }
            return next.is("(")
        }
    }

    /// Whether the function's parameters include a closure or block: a function type, `^`, or a parameter or type
    /// named like one (`handler`, `completion`, `…Block`).
    private static func takesClosure(_ function: Int, _ syntax: SourceSyntax) -> Bool {
        let open = syntax.scopes[function].open
        var cursor = open - 1
        var steps = 0
        // Back to the declaration's start: `func` (Swift), `-` / `+` at a line start (Objective-C).
        while cursor > 0, steps < 200 {
            let token = syntax.tokens[cursor]
            // Over a parenthesized list (`(handler: () -> Void = {})`), default values and all.
            if token.is(")"), let partner = syntax.partner(of: cursor), partner < cursor {
                cursor = partner - 1
                steps += 1
                continue
            }
            if token.is("{") || token.is("}") || token.is(";") { break }
            if syntax.isSwift, token.isIdentifier("func") || token.isIdentifier("init") { break }
            cursor -= 1
            steps += 1
        }
        var parameters = (cursor + 1)..<open
        if syntax.isSwift {
            // Only the parameter list, not the return type (`-> (() -> Void)?`).
            guard let paren = parameters.first(where: { syntax.tokens[$0].is("(") }),
                let close = syntax.partner(of: paren)
            else { return false }
            parameters = (paren + 1)..<close
        }
        return parameters.contains { index in
            let token = syntax.tokens[index]
            if token.text == "->" || token.text == "^" { return true }
            guard token.kind == .identifier else { return false }
            let lowered = token.text.lowercased()
            return lowered.containsASCII("handler") || lowered.containsASCII("completion") || lowered.hasSuffix("block")
        }
    }
}
