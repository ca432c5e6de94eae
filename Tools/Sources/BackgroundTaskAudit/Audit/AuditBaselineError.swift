/// Why a baseline file could not be read or written.
public struct AuditBaselineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Equatable {
        /// The file does not exist or cannot be read.
        case unreadable
        /// The file is not a baseline: not JSON, or keys missing or of the wrong type.
        case malformed
        /// The file is a baseline of a later schema version than this library reads.
        case unsupportedVersion
        /// The file cannot be written.
        case unwritable
    }

    /// What went wrong.
    public var code: Code
    /// The baseline file concerned.
    public var path: String
    /// The specifics, for people: the system's reason or what is wrong in the file.
    public var detail: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - path: The baseline file.
    ///   - detail: The specifics.
    public init(code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// A one-line explanation, such as `cannot read baseline bgtask-baseline.json: no such file`.
    public var description: String {
        switch code {
        case .unreadable: "cannot read baseline \(path): \(detail)"
        case .malformed: "\(path) is not a bgtask audit baseline: \(detail)"
        case .unsupportedVersion: "baseline \(path) is of a newer format: \(detail)"
        case .unwritable: "cannot write baseline \(path): \(detail)"
        }
    }
}
