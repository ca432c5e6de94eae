/// A file or folder the audit did not read, and why. Reported as a note; it never fails the audit.
public struct SkippedFile: Sendable, Hashable, Codable {
    /// Why it was skipped.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// It contains NUL bytes.
        case binary
        /// It is not valid UTF-8.
        case notUTF8 = "not-utf8"
        /// It is larger than ``AuditConfiguration/maximumFileSize``.
        case tooLarge = "too-large"
        /// It could not be read.
        case unreadable
        /// A folder that could not be listed.
        case unreadableFolder = "unreadable-folder"
        /// A symbolic link that leads back into a folder being scanned.
        case symbolicLinkLoop = "symbolic-link-loop"
        /// A symbolic link whose target does not exist (or cannot be reached).
        case brokenSymbolicLink = "broken-symbolic-link"
        /// A FIFO, socket or device with a source extension: reading it could block.
        case notRegularFile = "not-a-regular-file"
        /// A file named explicitly that is not Swift or Objective-C.
        case unsupportedLanguage = "unsupported-language"
        /// Nested or repetitive beyond what any hand-written source needs (the rules' work grows with
        /// nesting depth times call sites, so such files are not analysed).
        case tooComplex = "too-complex"
    }

    /// The path.
    public var path: String
    /// Why it was skipped.
    public var reason: Reason
    /// Details for people (the system's error, the size).
    public var detail: String

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - reason: Why.
    ///   - detail: Details.
    public init(path: String, reason: Reason, detail: String) {
        self.path = path
        self.reason = reason
        self.detail = detail
    }

    /// `skipped PATH: binary file`, the line printed on standard error.
    public var note: String {
        "note: skipped \(path): \(detail)"
    }
}
