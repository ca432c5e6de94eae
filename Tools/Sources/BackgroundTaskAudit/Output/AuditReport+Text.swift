extension AuditReport {
    /// The findings as `path:line:column: severity: [BTnnn] message` lines (what Xcode and CI
    /// annotations read), then one summary line.
    public var text: String {
        var lines = findings.map { finding in
            "\(finding.path):\(finding.location.line):\(finding.location.column): "
                + "\(finding.severity.rawValue): [\(finding.ruleID)] \(finding.message)"
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Audited 57 files: 3 findings (1 error, 2 warnings, 0 notes), 1 suppressed, 2 skipped.`
    ///
    /// With a baseline applied, the findings it accepted are counted after the suppressed ones:
    /// `…, 1 suppressed, 12 baselined, 2 skipped.` Findings left out of test code are counted last:
    /// `…, 2 skipped, 4 in test code not shown (--include-tests).` Suspected findings left out at the proven level
    /// are counted after them: `…, 3 suspected not shown (--level suspected).`
    public var summary: String {
        let files = Self.plural(filesScanned, "file")
        let total = Self.plural(findings.count, "finding")
        let errors = Self.plural(count(of: .error), "error")
        let warnings = Self.plural(count(of: .warning), "warning")
        let notes = Self.plural(count(of: .note), "note")
        return "Audited \(files): \(total) (\(errors), \(warnings), \(notes)), "
            + "\(suppressedCount) suppressed, \(baselined.map { "\($0.count) baselined, " } ?? "")"
            + "\(skipped.count) skipped"
            + (testCodeCount > 0 ? ", \(testCodeCount) in test code not shown (--include-tests)" : "")
            + (suspectedCount > 0 ? ", \(suspectedCount) suspected not shown (--level suspected)." : ".")
    }

    /// One `note: skipped PATH: reason` line per skipped file, for standard error.
    public var skipNotes: String {
        skipped.map { $0.note + "\n" }.joined()
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
