/// BT003: a begin with no expiration handler, a `nil` one, or an empty closure or block.
enum MissingHandlerRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT003",
        severity: .error,
        summary: "Missing, nil or empty expiration handler"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        analysis.begins.compactMap { site in
            let problem: String
            switch site.handler {
            case .absent: problem = "No expiration handler"
            case .nilLiteral: problem = "The expiration handler is nil"
            case .closure(let scope) where analysis.isEmptyClosure(scope): problem = "The expiration handler is empty"
            default: return nil
            }
            return RuleHit(
                token: site.nameToken,
                message:
                    "\(problem): on expiry nothing ends the task and iOS kills the app (0x8badf00d); give it a handler that ends "
                    + "the task, or use SafeBackgroundTask."
            )
        }
    }
}
