/// One risky call site: which rule, where, and what to do about it.
public struct Finding: Sendable, Hashable, Codable {
    /// The rule that found it, for example `BT004`.
    public var ruleID: String
    /// The rule's severity.
    public var severity: Severity
    /// The file, as the audit was asked to read it (relative paths stay relative).
    public var path: String
    /// Where the finding points: the call, or the statement that causes the problem.
    public var location: SourceLocation
    /// The function or method the call site is in, when the scanner could tell.
    public var function: String?
    /// What happens on a device and what to do instead.
    public var message: String

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - ruleID: The rule that found it.
    ///   - severity: The rule's severity.
    ///   - path: The file.
    ///   - location: Where it points.
    ///   - function: The enclosing function, if known.
    ///   - message: What happens and what to do instead.
    public init(
        ruleID: String,
        severity: Severity,
        path: String,
        location: SourceLocation,
        function: String?,
        message: String
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.path = path
        self.location = location
        self.function = function
        self.message = message
    }
}
