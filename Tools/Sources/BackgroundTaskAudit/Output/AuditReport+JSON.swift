import Foundation

extension AuditReport {
    /// The version of the JSON document ``json()`` writes; raised only for incompatible changes.
    public static let jsonSchemaVersion = 1

    /// The report as a JSON document (schema version 1, documented in `Documentation/Audit.md`).
    ///
    /// ```json
    /// {
    ///   "findings" : [ { "column" : 9, "function" : "upload", "line" : 12, "message" : "…",
    ///                    "path" : "App/Upload.swift", "rule" : "BT004", "severity" : "error",
    ///                    "certainty" : "proven" } ],
    ///   "rules" : [ { "id" : "BT001", "severity" : "warning", "summary" : "…" } ],
    ///   "schemaVersion" : 1,
    ///   "skipped" : [ { "detail" : "binary file (contains NUL bytes)", "path" : "…", "reason" : "binary" } ],
    ///   "summary" : { "errors" : 1, "filesScanned" : 57, "filesSkipped" : 0, "findings" : 1, "notes" : 0,
    ///                 "suppressed" : 0, "warnings" : 0 }
    /// }
    /// ```
    ///
    /// Keys are sorted; `function` is `null` when the call is outside any function; `certainty` is `proven` or
    /// `suspected` (``FindingCertainty``), and `summary` gains `suspectedNotShown` when suspected findings were left
    /// out at the proven level. With a
    /// baseline applied (``applying(_:)``), `findings` holds only the new findings and `summary`
    /// gains `baselined` (findings the baseline accepted) and `baselineUnmatched` (its entries that
    /// matched nothing).
    ///
    /// - Returns: UTF-8 JSON text ending in a newline.
    public func json() -> String {
        let document = JSONDocument(
            schemaVersion: Self.jsonSchemaVersion,
            summary: JSONSummary(
                filesScanned: filesScanned,
                filesSkipped: skipped.count,
                findings: findings.count,
                errors: count(of: .error),
                warnings: count(of: .warning),
                notes: count(of: .note),
                suppressed: suppressedCount,
                baselined: baselined?.count,
                baselineUnmatched: baselined == nil ? nil : unmatchedBaselineEntries.count,
                testCodeNotShown: testCodeCount > 0 ? testCodeCount : nil,
                suspectedNotShown: suspectedCount > 0 ? suspectedCount : nil
            ),
            findings: findings.map(JSONFinding.init),
            skipped: skipped,
            rules: AuditRule.all
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is a string, number or nil: encoding cannot fail.
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

private struct JSONDocument: Encodable {
    var schemaVersion: Int
    var summary: JSONSummary
    var findings: [JSONFinding]
    var skipped: [SkippedFile]
    var rules: [AuditRule]
}

private struct JSONSummary: Encodable {
    var filesScanned: Int
    var filesSkipped: Int
    var findings: Int
    var errors: Int
    var warnings: Int
    var notes: Int
    var suppressed: Int
    // Present only when a baseline was applied (encoded with `encodeIfPresent`).
    var baselined: Int?
    var baselineUnmatched: Int?
    // Present only when findings in test code were left out.
    var testCodeNotShown: Int?
    // Present only when suspected findings were left out at the proven level.
    var suspectedNotShown: Int?
}

private struct JSONFinding: Encodable {
    var rule: String
    var severity: Severity
    var path: String
    var line: Int
    var column: Int
    var function: String?
    var message: String
    var certainty: FindingCertainty

    init(_ finding: Finding) {
        rule = finding.ruleID
        severity = finding.severity
        path = finding.path
        line = finding.location.line
        column = finding.location.column
        function = finding.function
        message = finding.message
        certainty = finding.certainty
    }

    enum CodingKeys: String, CodingKey {
        case rule, severity, path, line, column, function, message, certainty
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(severity, forKey: .severity)
        try container.encode(path, forKey: .path)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(function, forKey: .function)  // `null` when unknown, so the key is always there
        try container.encode(message, forKey: .message)
        try container.encode(certainty, forKey: .certainty)
    }
}
