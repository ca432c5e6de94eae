/// A place in a file: the file's path and a span of lines and columns (1-based).
public struct CodeRange: Sendable, Equatable, Hashable {
    /// The file, as the audit was given it.
    public var path: String
    /// The first line.
    public var line: Int
    /// The first column.
    public var column: Int
    /// The last line.
    public var endLine: Int

    /// Creates a range.
    public init(path: String, line: Int, column: Int, endLine: Int) {
        self.path = path
        self.line = line
        self.column = column
        self.endLine = endLine
    }

    /// Whether `line` is within this range.
    public func contains(line other: Int) -> Bool {
        line <= other && other <= endLine
    }
}
