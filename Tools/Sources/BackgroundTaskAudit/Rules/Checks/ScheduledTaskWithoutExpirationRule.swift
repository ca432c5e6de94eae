/// BT012: a `BGTaskScheduler` launch handler that sets no `expirationHandler`.
enum ScheduledTaskWithoutExpirationRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT012",
        severity: .warning,
        summary: "BGTask launch handler that sets no expirationHandler"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        return ScheduledTaskHandlers.registrations(in: syntax).compactMap { registration in
            guard !registration.handsTaskElsewhere,
                !ScheduledTaskHandlers.mentions(
                    ["expirationHandler", "setExpirationHandler"], in: registration, syntax: syntax)
            else { return nil }
            return RuleHit(
                token: registration.nameToken,
                message:
                    "This launch handler sets no expirationHandler: when time runs out the work is not stopped, the "
                    + "system marks the task complete and unsuccessful, and the work goes on until the app is "
                    + "suspended (a file or database lock still held then is 0xdead10cc). Cancel the work in an "
                    + "expirationHandler"
                    + (syntax.isSwift
                        ? ", or register with SafeTaskScheduler, which cancels and winds it down."
                        : " and complete the task.")
            )
        }
    }
}
