/// BT005: a begin whose identifier is stored in a property, instance variable or global.
enum StoredIdentifierRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT005",
        severity: .warning,
        summary: "Task identifier stored in a property or instance variable"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        analysis.begins.compactMap { site in
            guard let binding = analysis.binding(of: site), binding.storage == .property else { return nil }
            return RuleHit(
                token: site.nameToken,
                message: "The task identifier is stored in `\(binding.written)`, which outlives this call: a second "
                    + "begin before the first task ends overwrites it, the first task can never be ended, and "
                    + "\(RuleText.terminated) when it expires. Keep one task per job in a local or a "
                    + "SafeBackgroundTask, or track many with BackgroundTaskManager."
            )
        }
    }
}
