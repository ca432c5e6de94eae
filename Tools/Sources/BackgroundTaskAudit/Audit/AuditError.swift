/// Why an audit could not run at all.
public struct AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Equatable {
        /// A path given to the audit does not exist.
        case pathNotFound
    }

    /// What went wrong.
    public var code: Code
    /// The path concerned.
    public var path: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - path: The path concerned.
    public init(code: Code, path: String) {
        self.code = code
        self.path = path
    }

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .pathNotFound: "no such file or folder: \(path)"
        }
    }
}
