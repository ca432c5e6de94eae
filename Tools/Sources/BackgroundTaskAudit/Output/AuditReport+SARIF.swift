import Foundation

extension AuditReport {
    /// The report as a SARIF 2.1.0 log (Static Analysis Results Interchange Format), which code
    /// scanning services read: one run of the tool `bgtask audit`, every rule as a reporting
    /// descriptor (id, summary, default level, help link), and every finding as a result with its
    /// rule, level, message and location (path as given, 1-based line and column).
    ///
    /// - Parameter helpURI: Where each rule's long description is; the rule's heading anchor is appended.
    /// - Returns: UTF-8 JSON text ending in a newline.
    public func sarif(helpURI: String = "Documentation/Audit.md") -> String {
        let rules = AuditRule.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let log = SARIFLog(
            runs: [
                SARIFRun(
                    tool: SARIFTool(
                        driver: SARIFDriver(
                            rules: rules.map { rule in
                                SARIFRule(
                                    id: rule.id,
                                    shortDescription: SARIFMessage(text: rule.summary),
                                    defaultConfiguration: SARIFConfiguration(level: Self.sarifLevel(rule.severity)),
                                    helpUri: rule.helpURI(documentation: helpURI)
                                )
                            }
                        )),
                    results: findings.map { finding in
                        SARIFResult(
                            ruleId: finding.ruleID,
                            ruleIndex: ruleIndex[finding.ruleID] ?? 0,
                            // A suspected finding is a note, whatever its rule's severity, and says so in its properties.
                            level: finding.certainty == .suspected ? "note" : Self.sarifLevel(finding.severity),
                            message: SARIFMessage(text: finding.message),
                            locations: [
                                SARIFLocation(
                                    physicalLocation: SARIFPhysicalLocation(
                                        artifactLocation: SARIFArtifactLocation(uri: Self.sarifURI(finding.path)),
                                        region: SARIFRegion(
                                            startLine: finding.location.line, startColumn: finding.location.column)
                                    ))
                            ],
                            properties: SARIFResultProperties(certainty: finding.certainty.rawValue)
                        )
                    }
                )
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(log) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func sarifLevel(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// A path as a relative URI reference: each segment percent-encoded, `/` kept.
    private static func sarifURI(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            String(segment).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
                ?? String(segment)
        }.joined(separator: "/")
    }
}

private struct SARIFLog: Encodable {
    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    let version = "2.1.0"
    var runs: [SARIFRun]
}

private struct SARIFRun: Encodable {
    var tool: SARIFTool
    var results: [SARIFResult]
}

private struct SARIFTool: Encodable {
    var driver: SARIFDriver
}

private struct SARIFDriver: Encodable {
    let name = "bgtask audit"
    var rules: [SARIFRule]

    enum CodingKeys: String, CodingKey {
        case name, rules
    }
}

private struct SARIFRule: Encodable {
    var id: String
    var shortDescription: SARIFMessage
    var defaultConfiguration: SARIFConfiguration
    var helpUri: String
}

private struct SARIFConfiguration: Encodable {
    var level: String
}

private struct SARIFMessage: Encodable {
    var text: String
}

private struct SARIFResult: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: SARIFMessage
    var locations: [SARIFLocation]
    var properties: SARIFResultProperties
}

/// `proven` or `suspected` (``FindingCertainty``).
private struct SARIFResultProperties: Encodable {
    var certainty: String
}

private struct SARIFLocation: Encodable {
    var physicalLocation: SARIFPhysicalLocation
}

private struct SARIFPhysicalLocation: Encodable {
    var artifactLocation: SARIFArtifactLocation
    var region: SARIFRegion
}

private struct SARIFArtifactLocation: Encodable {
    var uri: String
}

private struct SARIFRegion: Encodable {
    var startLine: Int
    var startColumn: Int
}
