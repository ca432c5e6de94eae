extension AuditRule {
    /// Where the rules are described, relative to the root of this package.
    public static let documentationPath = "Documentation/Audit.md"

    /// The long explanation of the rule: what `bgtask audit --explain BTnnn` prints.
    ///
    /// What the rule finds, what the pattern does on a device, a before and after example in
    /// Swift and Objective-C, what to do, and the rule's blind spots, ending with a
    /// `Read more:` line that points at the rule's section of `Documentation/Audit.md`.
    ///
    /// ```swift
    /// if let rule = AuditRule.withID("bt004") {
    ///     print(rule.explanation)
    /// }
    /// ```
    ///
    /// A rule this library does not define (one made with ``init(id:severity:summary:)``) gets
    /// only its id, severity and summary.
    public var explanation: String {
        guard let explanation = RuleExplanation.forRule(id) else {
            return "\(id) (\(severity.rawValue)): \(summary)\n"
        }
        return explanation.render(rule: self, helpURI: helpURI)
    }

    /// The anchor of the rule's section in `Documentation/Audit.md`, as GitHub and most Markdown
    /// renderers derive it from the heading, for example
    /// `bt004--handler-that-does-not-end-the-task-synchronously`.
    ///
    /// A rule this library does not define gets its lower-cased id.
    public var documentationAnchor: String {
        RuleExplanation.forRule(id)?.anchor ?? id.lowercased()
    }

    /// A link to the rule's section of the documentation, relative to the package root:
    /// `Documentation/Audit.md#bt004--handler-that-does-not-end-the-task-synchronously`.
    ///
    /// What a SARIF reporting descriptor's `helpUri` can hold; use
    /// ``helpURI(documentation:)`` to point at a hosted copy.
    public var helpURI: String {
        helpURI(documentation: Self.documentationPath)
    }

    /// A link to the rule's section in a copy of `Documentation/Audit.md` at `documentation`.
    ///
    /// ```swift
    /// rule.helpURI(documentation: "https://example.com/BackgroundTaskKit/blob/main/Documentation/Audit.md")
    /// ```
    ///
    /// - Parameter documentation: The URI or path of the Markdown file.
    /// - Returns: `documentation#anchor`.
    public func helpURI(documentation: String) -> String {
        "\(documentation)#\(documentationAnchor)"
    }
}
