/// The result of an audit: findings, in path and line order, and what was skipped.
public struct AuditReport: Sendable {
    /// The findings, sorted by path, line, column and rule.
    public var findings: [Finding]
    /// How many findings `bgtask:ignore` comments silenced.
    public var suppressedCount: Int
    /// How many files were read.
    public var filesScanned: Int
    /// Files and folders not read, each with its reason.
    public var skipped: [SkippedFile]
    /// The findings a baseline accepted, which ``findings`` no longer holds; `nil` when no
    /// baseline was applied (see ``applying(_:)``).
    public var baselined: [Finding]?
    /// The baseline's entries that matched no finding: fixed, or changed beyond recognition.
    public var unmatchedBaselineEntries: [AuditBaseline.Entry] = []
    /// How many findings in test code were left out (``AuditConfiguration/includesTestCode`` off).
    public var testCodeCount = 0
    /// How many suspected findings were left out at the proven level (``AuditLevel/proven``); `--level suspected`
    /// shows them.
    public var suspectedCount = 0

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - findings: The findings.
    ///   - suppressedCount: How many were silenced.
    ///   - filesScanned: How many files were read.
    ///   - skipped: What was not read.
    ///   - baselined: The findings a baseline accepted, or `nil` when none was applied.
    public init(
        findings: [Finding],
        suppressedCount: Int,
        filesScanned: Int,
        skipped: [SkippedFile],
        baselined: [Finding]? = nil
    ) {
        self.findings = findings
        self.suppressedCount = suppressedCount
        self.filesScanned = filesScanned
        self.skipped = skipped
        self.baselined = baselined
    }

    /// How many findings have exactly this severity.
    ///
    /// - Parameter severity: The severity.
    /// - Returns: The count.
    public func count(of severity: Severity) -> Int {
        findings.count { $0.severity == severity }
    }

    /// Whether any finding is at or above `severity`: what `--fail-on` checks. A suspected finding counts as a note.
    ///
    /// - Parameter severity: The threshold.
    /// - Returns: `true` when the audit should fail.
    public func hasFindings(atOrAbove severity: Severity) -> Bool {
        // A suspected finding counts as a note, whatever its rule's severity (as in SARIF).
        findings.contains { ($0.certainty == .suspected ? .note : $0.severity) >= severity }
    }
}
