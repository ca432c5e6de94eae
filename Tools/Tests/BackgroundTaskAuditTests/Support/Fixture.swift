import BackgroundTaskAudit
import Foundation
import Testing

/// One file of the fixture corpus and the findings its `// expect:` comments call for.
struct Fixture: CustomTestStringConvertible, Sendable {
    /// The rule folder, `BT001` … `BT014`.
    let rule: String
    /// `Flagged.swift`, `Clean.swift`, `Flagged.m` or `Clean.m`.
    let fileName: String

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let all: [Fixture] = AuditRule.all.flatMap { rule in
        (swiftOnlyRules.contains(rule.id)
            ? ["Flagged.swift", "Clean.swift"] : ["Flagged.swift", "Clean.swift", "Flagged.m", "Clean.m"])
            .map { Fixture(rule: rule.id, fileName: $0) }
    }

    /// Rules about BackgroundTaskKit's own Swift API, which Objective-C code cannot call.
    static let swiftOnlyRules: Set<String> = ["BT010"]

    var testDescription: String { "\(rule)/\(fileName)" }
    var isFlagged: Bool { fileName.hasPrefix("Flagged") }
    var path: String { "Fixtures/\(rule)/\(fileName)" }

    func source() throws -> String {
        try String(
            contentsOf: Self.folder.appendingPathComponent(rule).appendingPathComponent(fileName), encoding: .utf8)
    }

    /// `"12 BT004"` for every id after `// expect:` on line 12.
    static func expectations(in source: String) -> Set<String> {
        var expected: Set<String> = []
        for (offset, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let marker = line.range(of: "// expect:") else { continue }
            for id in line[marker.upperBound...].split(separator: " ") {
                expected.insert("\(offset + 1) \(id)")
            }
        }
        return expected
    }

    /// How many `// sample:` comments the file has.
    static func sampleCount(in source: String) -> Int {
        source.components(separatedBy: "// sample:").count - 1
    }

    /// Audits the fixture: BT001's own folder as is, the others with every path allowed as a wrapper; with `engine`
    /// or `level`, by that engine or at that level instead of the default ones.
    func findings(in source: String, engine: AuditEngine? = nil, level: AuditLevel? = nil) -> [Finding] {
        let allowed = rule == "BT001" ? [] : [GlobPattern("**")]
        var configuration = AuditConfiguration(allowedWrapperPaths: allowed)
        configuration.permittedTaskIdentifiers = Self.permittedIdentifiers(in: source)
        if let engine { configuration.engine = engine }
        if let level { configuration.level = level }
        return Auditor(configuration: configuration).audit(source: source, path: path)
    }

    /// The identifiers after `// permitted:`, standing for the app's Info.plist (BT014); `nil` without one.
    static func permittedIdentifiers(in source: String) -> [String]? {
        guard let line = source.split(separator: "\n").first(where: { $0.contains("// permitted:") }),
            let marker = line.range(of: "// permitted:")
        else { return nil }
        return line[marker.upperBound...].split(separator: " ").map(String.init)
    }
}
