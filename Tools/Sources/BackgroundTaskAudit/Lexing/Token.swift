/// One token of code; comments and whitespace are not tokens.
struct Token: Sendable {
    /// What kind of token it is.
    enum Kind: UInt8, Sendable {
        /// A name or keyword (`func`, `self`, `beginBackgroundTask`, `__block`).
        case identifier
        /// One of `( ) [ ] { } , ; : . @ # \`.
        case punctuation
        /// A run of operator characters (`=`, `==`, `?`, `->`, `??`), or `^` alone.
        case `operator`
        /// A string or character literal of any form; `text` is `""` for an empty literal, `"…"` otherwise.
        case string
        /// A number literal.
        case number
        /// A Swift `#keyword` (`#if`, `#selector`) or an Objective-C `@keyword` (`@interface`, `@end`).
        case directive
    }

    var kind: Kind
    /// The token's text (for string literals only whether they are empty, see ``Kind/string``).
    var text: String
    /// Byte offset of the first byte.
    var offset: Int32
    var line: Int32
    var column: Int32

    var location: SourceLocation { SourceLocation(line: Int(line), column: Int(column)) }

    func `is`(_ punctuation: String) -> Bool {
        kind != .identifier && kind != .string && text == punctuation
    }

    func isIdentifier(_ name: String) -> Bool {
        kind == .identifier && text == name
    }
}

/// A comment that mentions `bgtask:ignore`, kept for suppressions.
struct SuppressionComment: Sendable {
    var text: String
    var startLine: Int
    var endLine: Int
}
