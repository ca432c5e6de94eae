/// One of the audit's rules: a stable id, a severity and a one-line summary.
///
/// The ids never change meaning; new rules get new ids. Each finding's message adds the specifics:
/// what happens on a device and which face of BackgroundTaskKit replaces the pattern.
public struct AuditRule: Sendable, Hashable, Codable {
    /// The id, `BT001` … `BT009`; what suppression comments and JSON output name.
    public var id: String
    /// The severity of every finding of this rule.
    public var severity: Severity
    /// What the rule looks for, in a few words.
    public var summary: String

    /// Creates a rule description.
    ///
    /// - Parameters:
    ///   - id: The stable id.
    ///   - severity: The severity of its findings.
    ///   - summary: What it looks for.
    public init(id: String, severity: Severity, summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }

    /// Every rule, in id order.
    public static let all: [AuditRule] = RuleCatalog.checkers.map { $0.rule }

    /// The rule with this id, if there is one.
    ///
    /// - Parameter id: A rule id such as `BT004` (case-insensitive).
    /// - Returns: The rule, or `nil`.
    public static func withID(_ id: String) -> AuditRule? {
        all.first { $0.id == id.uppercased() }
    }
}
