import AuditCodeModel
import BackgroundTaskAudit
import SwiftAuditFrontEnd

/// Sources read into the code model for a test, each by the front end of its language (`.m` is Objective-C).
enum ModelFixture {
    /// One file.
    static func read(_ path: String, _ source: String) -> CodeFile {
        path.hasSuffix(".m") ? ObjectiveCFrontEnd.read(source, path: path) : SwiftFrontEnd.read(source, path: path)
    }

    /// Several files (path → source), in path order.
    static func read(_ files: [String: String]) -> [CodeFile] {
        files.sorted { $0.key < $1.key }.map { read($0.key, $0.value) }
    }

    /// `BT004 proven File.swift:12` per finding (`withPath: false`: `BT004 proven 12`).
    static func summary(_ findings: [AnalysisFinding], withPath: Bool = true) -> [String] {
        findings.map { finding in
            let place = withPath ? "\(finding.location.path):\(finding.location.line)" : "\(finding.location.line)"
            return "\(finding.ruleID) \(finding.certainty.rawValue) \(place)"
        }
    }
}
