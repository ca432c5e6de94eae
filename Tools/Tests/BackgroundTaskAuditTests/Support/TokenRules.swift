import BackgroundTaskAudit

extension Auditor {
    /// An auditor whose token rules decide the defect findings (`--engine tokens`), with `configuration`'s other
    /// settings: what the tests of the token rules' classes and messages pin down.
    static func tokenRules(_ configuration: AuditConfiguration = AuditConfiguration()) -> Auditor {
        var configuration = configuration
        configuration.engine = .tokens
        return Auditor(configuration: configuration)
    }
}
