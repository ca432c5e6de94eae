/// Which rules decide the defect findings (BT003 to BT009, BT011 to BT013).
public enum AuditEngine: String, Sendable, Hashable, CaseIterable {
    /// The code model: Swift read by `swift-syntax`, Objective-C by the audit's own front end, one model of call sites,
    /// handlers, end paths and queues, a project-wide index, and a chain of evidence for every finding.
    case codeModel = "model"
    /// The token rules of BackgroundTaskKit 2.x, kept to compare with while the code model is measured.
    case tokens
}
