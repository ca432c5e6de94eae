/// BT014: a task identifier registered or requested that the app's Info.plist does not permit.
enum UnpermittedTaskIdentifierRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT014",
        severity: .error,
        summary: "BGTask identifier missing from the Info.plist's BGTaskSchedulerPermittedIdentifiers"
    )

    /// The calls whose identifier argument names a task: registrations and request initializers.
    private static let owners: Set<String> = [
        "register", "registerForTaskWithIdentifier", "BGAppRefreshTaskRequest", "BGProcessingTaskRequest",
        "BGContinuedProcessingTaskRequest", "BGHealthResearchTaskRequest",
    ]

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        guard let permitted = analysis.vocabulary.permittedTaskIdentifiers else { return [] }
        let syntax = analysis.syntax
        return syntax.taskIdentifierLiterals.keys.sorted().compactMap { index in
            guard let identifier = syntax.taskIdentifierLiterals[index], isTaskIdentifier(at: index, in: syntax),
                !PermittedTaskIdentifiers.permits(identifier, in: permitted)
            else { return nil }
            return RuleHit(
                token: index,
                message:
                    "\"\(identifier)\" is not in the Info.plist's BGTaskSchedulerPermittedIdentifiers: the system "
                    + "refuses its registration and requests (notPermitted), and the work never runs. Add it (a "
                    + "continued-processing identifier under a `prefix.*` entry)"
                    + (syntax.isSwift
                        ? "; SafeTaskScheduler checks the running app's Info.plist and throws notPermitted." : ".")
            )
        }
    }

    /// Whether the literal is the identifier of a registration or a task request (within a few tokens of its name).
    private static func isTaskIdentifier(at index: Int, in syntax: SourceSyntax) -> Bool {
        ((max(index - 6, 0))..<index).contains {
            syntax.tokens[$0].kind == .identifier && owners.contains(syntax.tokens[$0].text)
        }
    }
}
