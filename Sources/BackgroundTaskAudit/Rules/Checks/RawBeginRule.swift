/// BT001: a raw begin (or expiring activity) outside an allowed wrapper.
///
/// A call is inside a wrapper when its file matches an `--allow` glob, when the function it is
/// in is itself named `beginBackgroundTask…` or `performExpiringActivity…` (an implementation of
/// the same API), or when it passes on the handler of the function or closure it is in (a shim:
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
                !analysis.forwardsHandler(site)
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

    /// Inside a function named like the API, or a closure passed as an argument labelled so
    /// (`execute(beginBackgroundTask: { name, handler in … })`).
    private static func isInsideWrapper(_ site: CallSite, _ analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        return syntax.scopeChain(from: syntax.scope(containing: site.nameToken)).contains { scope in
            let name: String?
            switch syntax.scopes[scope].kind {
            case .function: name = syntax.scopes[scope].name
            case .closure: name = analysis.argumentLabel(ofClosure: scope)
            default: name = nil
            }
            guard let name else { return false }
            return name.hasPrefix("beginBackgroundTask") || name.hasPrefix("performExpiringActivity")
        }
    }
}
