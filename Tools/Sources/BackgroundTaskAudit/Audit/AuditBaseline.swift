import Foundation

/// Findings accepted as they are, so that an audit reports only the ones added since: what
/// `bgtask audit --write-baseline FILE` writes and `bgtask audit --baseline FILE` reads.
///
/// Each finding is recorded by what survives unrelated edits: its rule, its file, its enclosing
/// function, the text of the flagged line with whitespace collapsed (``Entry/code``), and an
/// occurrence number that tells identical lines apart. The line number is not part of it, so
/// inserting or removing lines above a finding keeps it baselined; editing the flagged line itself,
/// renaming its function or moving it to another file makes it new.
///
/// ```swift
/// let report = try await Auditor().audit(paths: ["Sources"])
/// try AuditBaseline(report: report).write(to: "bgtask-baseline.json")
/// // later
/// let baseline = try AuditBaseline(contentsOf: "bgtask-baseline.json")
/// let newOnly = try await Auditor().audit(paths: ["Sources"]).applying(baseline)
/// ```
///
/// The JSON file is pretty-printed with sorted keys and its entries sorted, so that a rewrite after
/// a change shows up in review as a small diff.
public struct AuditBaseline: Sendable, Hashable, Codable {
    /// The version of the file format ``json()`` writes; files of a later version are refused.
    public static let schemaVersion = 1

    /// The accepted findings, sorted (see ``Entry``).
    public var entries: [Entry]

    /// One accepted finding.
    ///
    /// Two entries with the same rule, path, function and code differ in ``occurrence``: the first
    /// such finding in the file is `0`, the next `1`, and so on.
    public struct Entry: Sendable, Hashable, Codable, Comparable {
        /// The rule id, such as `BT004`.
        public var rule: String
        /// The file, relative as given on the command line, without `.` parts or doubled slashes.
        public var path: String
        /// The enclosing function or Objective-C selector, or `nil` outside any function.
        public var function: String?
        /// The flagged line's text, with leading and trailing whitespace removed and every run of
        /// whitespace inside it replaced by one space.
        public var code: String
        /// Which of several findings with the same rule, path, function and code this is, from `0`.
        public var occurrence: Int

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - rule: The rule id.
        ///   - path: The file; it is normalized (``AuditBaseline/normalizedPath(_:)``).
        ///   - function: The enclosing function, if any.
        ///   - code: The flagged line; it is normalized (``AuditBaseline/normalizedCode(_:)``).
        ///   - occurrence: Which of several identical findings, from `0`.
        public init(rule: String, path: String, function: String?, code: String, occurrence: Int = 0) {
            self.rule = rule
            self.path = AuditBaseline.normalizedPath(path)
            self.function = function
            self.code = AuditBaseline.normalizedCode(code)
            self.occurrence = occurrence
        }

        /// Orders entries by path, rule, function, code and occurrence: an order that does not
        /// change when lines move.
        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.path, lhs.rule, lhs.function ?? "", lhs.code, lhs.occurrence)
                < (rhs.path, rhs.rule, rhs.function ?? "", rhs.code, rhs.occurrence)
        }

        enum CodingKeys: String, CodingKey {
            case rule, path, function, code, occurrence
        }

        /// Decodes an entry; a missing `function` is `nil`, a missing `occurrence` is `0`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                rule: try container.decode(String.self, forKey: .rule),
                path: try container.decode(String.self, forKey: .path),
                function: try container.decodeIfPresent(String.self, forKey: .function),
                code: try container.decode(String.self, forKey: .code),
                occurrence: try container.decodeIfPresent(Int.self, forKey: .occurrence) ?? 0
            )
        }

        /// Encodes an entry; `function` is written as `null` when there is none.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(path, forKey: .path)
            try container.encode(function, forKey: .function)
            try container.encode(code, forKey: .code)
            try container.encode(occurrence, forKey: .occurrence)
        }

        /// The entry without its occurrence: what identical findings share.
        fileprivate var key: Key {
            Key(rule: rule, path: path, function: function, code: code)
        }
    }

    /// How a set of findings compares with a baseline.
    public struct Comparison: Sendable, Hashable {
        /// Findings the baseline does not hold, in their original order.
        public var new: [Finding]
        /// Findings the baseline holds, in their original order.
        public var baselined: [Finding]
        /// Entries that matched no finding: fixed, or changed beyond recognition.
        public var unmatched: [Entry]
    }

    /// Creates a baseline from entries, which are sorted.
    ///
    /// - Parameter entries: The accepted findings.
    public init(entries: [Entry]) {
        self.entries = entries.sorted()
    }

    /// Creates a baseline that accepts `findings`.
    ///
    /// - Parameters:
    ///   - findings: The findings, in path and line order (as ``AuditReport/findings`` holds them).
    ///   - code: The text of the line each finding points at.
    public init(findings: [Finding], code: (Finding) -> String) {
        self.init(entries: Self.entries(for: findings, code: code))
    }

    /// Splits `findings` into the ones this baseline holds and the new ones.
    ///
    /// A finding matches the entry with the same rule, path, function, code and occurrence. Each
    /// entry matches at most one finding.
    ///
    /// - Parameters:
    ///   - findings: The findings, in path and line order.
    ///   - code: The text of the line each finding points at.
    /// - Returns: The new findings, the baselined ones, and the entries nothing matched.
    public func compare(_ findings: [Finding], code: (Finding) -> String) -> Comparison {
        var remaining = Set(entries)
        var comparison = Comparison(new: [], baselined: [], unmatched: [])
        for (finding, entry) in zip(findings, Self.entries(for: findings, code: code)) {
            if remaining.remove(entry) != nil {
                comparison.baselined.append(finding)
            } else {
                comparison.new.append(finding)
            }
        }
        comparison.unmatched = remaining.sorted()
        return comparison
    }

    /// One entry per finding, in the findings' order, with occurrences counted per key.
    private static func entries(for findings: [Finding], code: (Finding) -> String) -> [Entry] {
        var seen: [Key: Int] = [:]
        return findings.map { finding in
            var entry = Entry(rule: finding.ruleID, path: finding.path, function: finding.function, code: code(finding))
            entry.occurrence = seen[entry.key, default: 0]
            seen[entry.key] = entry.occurrence + 1
            return entry
        }
    }

    /// `path` without `.` parts and doubled slashes: `./Sources//App.swift` is `Sources/App.swift`.
    ///
    /// `..` parts are kept; a leading `/` is kept.
    ///
    /// - Parameter path: A path as the audit reported it.
    /// - Returns: The path as a baseline records it.
    public static func normalizedPath(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? path : joined
    }

    /// `line` with leading and trailing whitespace removed and each run of whitespace inside it
    /// replaced by one space, so that re-indenting a line keeps it baselined.
    ///
    /// - Parameter line: A source line.
    /// - Returns: The line as a baseline records it.
    public static func normalizedCode(_ line: String) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// What identical findings share: everything but the occurrence.
private struct Key: Hashable {
    var rule: String
    var path: String
    var function: String?
    var code: String
}
