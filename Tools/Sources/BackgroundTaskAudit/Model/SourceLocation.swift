/// A position in a source file: 1-based line and column (the column counts UTF-8 bytes, as clang does).
public struct SourceLocation: Sendable, Hashable, Codable, Comparable {
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1, in UTF-8 bytes.
    public var column: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - line: The line, starting at 1.
    ///   - column: The column, starting at 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Orders locations by line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
