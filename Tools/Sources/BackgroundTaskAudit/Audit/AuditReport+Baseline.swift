import Foundation

extension AuditBaseline {
    /// Creates a baseline that accepts every finding of `report`, reading each flagged line from
    /// its file.
    ///
    /// A file that can no longer be read gives its findings an empty ``Entry/code``.
    ///
    /// - Parameter report: An audit's report.
    public init(report: AuditReport) {
        var lines = FlaggedLines()
        self.init(findings: report.findings) { lines.text(of: $0) }
    }
}

extension AuditReport {
    /// The report with the findings `baseline` holds moved from ``findings`` to ``baselined``,
    /// so that text, JSON and SARIF output, the summary and ``hasFindings(atOrAbove:)`` see only
    /// the new ones.
    ///
    /// Each flagged line is read from its file to compare it with the baseline's entries.
    ///
    /// - Parameter baseline: The accepted findings.
    /// - Returns: The report, with ``baselined`` and ``unmatchedBaselineEntries`` set.
    public func applying(_ baseline: AuditBaseline) -> AuditReport {
        var lines = FlaggedLines()
        let comparison = baseline.compare(findings) { lines.text(of: $0) }
        var report = self
        report.findings = comparison.new
        report.baselined = (baselined ?? []) + comparison.baselined
        report.unmatchedBaselineEntries = comparison.unmatched
        return report
    }

    /// `note: 2 baseline entries no longer match; rewrite with --write-baseline`, for standard
    /// error, or nothing when every entry matched.
    public var unmatchedBaselineNote: String {
        switch unmatchedBaselineEntries.count {
        case 0: ""
        case 1: "note: 1 baseline entry no longer matches; rewrite with --write-baseline\n"
        case let count: "note: \(count) baseline entries no longer match; rewrite with --write-baseline\n"
        }
    }
}

/// The lines of the files findings point at, each file read once.
private struct FlaggedLines {
    private var files: [String: [ArraySlice<UInt8>]] = [:]

    /// The text of the line `finding` points at, or `""` when the file or line is gone.
    mutating func text(of finding: Finding) -> String {
        let lines = lines(of: finding.path)
        let index = finding.location.line - 1
        return lines.indices.contains(index) ? String(decoding: lines[index], as: UTF8.self) : ""
    }

    private mutating func lines(of path: String) -> [ArraySlice<UInt8>] {
        if let lines = files[path] { return lines }
        var bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // Lines end at `\n` only, as the audit counts them; a `\r` before it is whitespace.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        files[path] = lines
        return lines
    }
}
