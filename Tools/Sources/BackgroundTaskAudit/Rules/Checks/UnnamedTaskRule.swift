/// BT002: a task begun without a name, or an expiring activity with an empty reason.
enum UnnamedTaskRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT002",
        severity: .note,
        summary: "Background task without a name (no name, nil or empty)"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let swift = analysis.syntax.isSwift
        return analysis.sites.compactMap { site in
            // A shim's call: the shim may well name the task itself.
            guard !site.isShimCall else { return nil }
            switch (site.kind, site.name) {
            case (.begin, .absent), (.begin, .nilLiteral), (.begin, .emptyString):
                let fix =
                    swift
                    ? "beginBackgroundTask(withName: \"Upload photos\") { … }"
                    : "beginBackgroundTaskWithName:@\"Upload photos\" expirationHandler:"
                return RuleHit(
                    token: site.nameToken,
                    message:
                        "Unnamed background task: iOS's warnings and termination logs cannot say which code held it; "
                        + "name it (\(fix)) or use SafeBackgroundTask.begin(\"Upload\")."
                )
            case (.expiringActivity, .emptyString):
                return RuleHit(
                    token: site.nameToken,
                    message:
                        "Expiring activity with an empty reason: system logs cannot say which code held it; pass a "
                        + "reason that names the work, or use withBackgroundTask(\"Upload\")."
                )
            default:
                return nil
            }
        }
    }
}
