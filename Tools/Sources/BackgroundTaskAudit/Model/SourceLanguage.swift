/// The languages the audit reads, chosen by file extension.
public enum SourceLanguage: String, Sendable, Codable, CaseIterable {
    /// Swift (`.swift`).
    case swift
    /// Objective-C and Objective-C++ (`.m`, `.mm`, `.h`).
    case objectiveC = "objective-c"

    /// The language of a file with this path, or `nil` when the audit does not read such files.
    ///
    /// - Parameter path: A file path; only its extension is looked at.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...] {
        case "swift": self = .swift
        case "m", "mm", "h": self = .objectiveC
        default: return nil
        }
    }
}
