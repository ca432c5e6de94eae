/// How serious a finding is; ordered from `note` to `error`.
///
/// The severities map onto what Xcode and CI annotations understand, so each finding prints as
/// `path:line:column: <severity>: [BTxxx] message`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Worth knowing (for example an unnamed task); no crash follows from it alone.
    case note
    /// A pattern that leaks or double-ends tasks on some paths, or a raw call outside a wrapper.
    case warning
    /// A pattern that gets the app terminated the first time the task expires.
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// Orders severities from `note` (lowest) to `error` (highest).
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }
}
