/// A finding before it is given a path, severity and function: where, and the message.
struct RuleHit {
    var token: Int
    var message: String
}

/// A rule's implementation: reads a file's analysis and reports hits.
protocol RuleChecking {
    static var rule: AuditRule { get }
    static func hits(in analysis: FileAnalysis) -> [RuleHit]
}

/// All rule implementations, in id order.
enum RuleCatalog {
    static var checkers: [any RuleChecking.Type] {
        [
            RawBeginRule.self,
            UnnamedTaskRule.self,
            MissingHandlerRule.self,
            LateEndRule.self,
            StoredIdentifierRule.self,
            CaptureBeforeAssignmentRule.self,
            DoubleEndRule.self,
            EarlyExitRule.self,
            ExpiringActivityReturnsEarlyRule.self,
            DiscardedTaskRule.self,
            ScheduledTaskNeverCompletedRule.self,
            ScheduledTaskWithoutExpirationRule.self,
            ScheduledTaskLateRegistrationRule.self,
            UnpermittedTaskIdentifierRule.self,
        ]
    }
}

/// Wording shared by several rules.
enum RuleText {
    static let terminated = "iOS terminates the app with 0x8badf00d"

    /// `beginBackgroundTask` or `beginBackgroundTaskWithName:expirationHandler:`, as the site spells it.
    static func spelling(_ site: CallSite, in syntax: SourceSyntax) -> String {
        let name = syntax.tokens[site.nameToken].text
        return syntax.isSwift ? name : name + ":"
    }
}
