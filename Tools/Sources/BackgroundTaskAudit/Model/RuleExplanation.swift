/// The long explanation of one rule, in sections: what `bgtask audit --explain BTnnn` prints.
///
/// The texts live in `RuleExplanation+Catalog.swift`; ``AuditRule/explanation`` renders them.
struct RuleExplanation: Sendable {
    /// One before/after pair in one language.
    struct Example: Sendable {
        /// `Swift` or `Objective-C`.
        var language: String
        /// The pattern the rule reports.
        var before: String
        /// What to write instead.
        var after: String
    }

    /// The rule's id, `BT001` … `BT010`.
    var ruleID: String
    /// The heading of the rule's section in `Documentation/Audit.md`, after `BTnnn — `.
    var heading: String
    /// What the rule looks for.
    var finds: String
    /// What the pattern does on a device.
    var onDevice: String
    /// Before and after, Swift first.
    var examples: [Example]
    /// What to do about a finding.
    var remedy: String
    /// What the rule does not see, or sees wrongly.
    var blindSpots: String

    /// The explanation of the rule with this id (exact, upper-case), if it has one.
    static func forRule(_ id: String) -> RuleExplanation? {
        catalog.first { $0.ruleID == id }
    }

    /// The GitHub-style anchor of the rule's section heading, `BTnnn — heading`: lower-cased,
    /// punctuation other than `-` removed, each space a `-`.
    var anchor: String {
        let title = "\(ruleID) — \(heading)".lowercased()
        let kept = title.unicodeScalars.filter { scalar in
            scalar == " " || scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
                || ("0"..."9").contains(scalar)
        }
        return String(String.UnicodeScalarView(kept)).split(separator: " ", omittingEmptySubsequences: false)
            .joined(separator: "-")
    }

    /// The explanation as plain text, ready to print.
    ///
    /// - Parameters:
    ///   - rule: The rule, for its id, severity and summary.
    ///   - helpURI: Where the full section is.
    func render(rule: AuditRule, helpURI: String) -> String {
        var lines = ["\(rule.id) (\(rule.severity.rawValue)): \(rule.summary)", ""]
        func section(_ title: String, _ body: String) {
            lines.append("\(title):")
            lines += body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  \($0)" }
            lines.append("")
        }
        section("WHAT IT FINDS", finds)
        section("ON A DEVICE", onDevice)
        for example in examples {
            section("BEFORE (\(example.language))", example.before)
            section("AFTER (\(example.language))", example.after)
        }
        section("WHAT TO DO", remedy)
        section("BLIND SPOTS", blindSpots)
        lines.append("Read more: \(helpURI)")
        return lines.joined(separator: "\n") + "\n"
    }
}
