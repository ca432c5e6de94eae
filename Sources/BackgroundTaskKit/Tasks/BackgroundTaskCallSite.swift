/// The place in the source that began a background task, captured from `#fileID`, `#line` and
/// `#function` default arguments at no run-time cost.
public struct BackgroundTaskCallSite: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` gives it: `Module/File.swift`.
    public var fileID: String
    /// The line of the call.
    public var line: Int
    /// The enclosing function, as `#function` gives it.
    public var function: String

    /// Creates a call site.
    public init(fileID: String, line: Int, function: String) {
        self.fileID = fileID
        self.line = line
        self.function = function
    }

    /// The call site of a raw begin that did not say where it was made.
    public static let unknown = BackgroundTaskCallSite(fileID: "<unknown>", line: 0, function: "<unknown>")

    /// `Module/File.swift:12 (save(_:))`.
    public var description: String {
        "\(fileID):\(line) (\(function))"
    }
}
