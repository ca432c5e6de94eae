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
    /// What happens on a device and what to do instead; a code-model finding names the lines of its chain.
    public var message: String
    /// Whether every link of the finding's chain is established (``FindingCertainty/proven``), or one rests on code the
    /// audit could not read or on the app's life cycle (``FindingCertainty/suspected``).
    public var certainty: FindingCertainty

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - ruleID: The rule that found it.
    ///   - severity: The rule's severity.
    ///   - path: The file.
    ///   - location: Where it points.
    ///   - function: The enclosing function, if known.
    ///   - message: What happens and what to do instead.
    ///   - certainty: Whether its chain is proven (the default) or suspected.
    public init(
        ruleID: String,
        severity: Severity,
        path: String,
        location: SourceLocation,
        function: String?,
        message: String,
        certainty: FindingCertainty = .proven
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.path = path
        self.location = location
        self.function = function
        self.message = message
        self.certainty = certainty
    }

    private enum CodingKeys: String, CodingKey {
        case ruleID, severity, path, location, function, message, certainty
    }

    /// Decodes a finding; one written before findings had a certainty is proven.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ruleID = try container.decode(String.self, forKey: .ruleID)
        severity = try container.decode(Severity.self, forKey: .severity)
        path = try container.decode(String.self, forKey: .path)
        location = try container.decode(SourceLocation.self, forKey: .location)
        function = try container.decodeIfPresent(String.self, forKey: .function)
        message = try container.decode(String.self, forKey: .message)
        certainty = try container.decodeIfPresent(FindingCertainty.self, forKey: .certainty) ?? .proven
    }
}
