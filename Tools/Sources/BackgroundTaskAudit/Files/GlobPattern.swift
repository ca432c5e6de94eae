/// A shell-style path pattern for `--allow`: `*` (within one folder), `**` (any number of folders),
/// `?` (one character) and `[abc]` / `[a-z]` / `[!a]` (one of a set).
///
/// A pattern starting with `/` must match the whole path; any other pattern also matches the end of
/// a path at a folder boundary, so `Sources/Wrappers/*.swift` matches
/// `./App/Sources/Wrappers/Task.swift`.
public struct GlobPattern: Sendable, Hashable {
    /// The pattern as written.
    public let pattern: String
    private let bytes: [UInt8]

    /// Creates a pattern.
    ///
    /// - Parameter pattern: The glob, for example `Sources/Wrappers/**`.
    public init(_ pattern: String) {
        self.pattern = pattern
        var text = pattern
        while text.hasPrefix("./") { text.removeFirst(2) }
        bytes = Array(text.utf8)
    }

    /// Whether `path` matches.
    ///
    /// - Parameter path: A file path, relative or absolute.
    /// - Returns: `true` when the whole path, or (for unanchored patterns) a suffix of it starting at a
    ///   folder boundary, matches.
    public func matches(_ path: String) -> Bool {
        var text = Array(path.utf8)
        while text.count >= 2, text[0] == ASCII.dot, text[1] == ASCII.slash { text.removeFirst(2) }
        if Self.match(bytes[...], text[...]) { return true }
        guard bytes.first != ASCII.slash else { return false }
        for index in text.indices where text[index] == ASCII.slash {
            if Self.match(bytes[...], text[(index + 1)...]) { return true }
        }
        return false
    }

    private static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var pattern = pattern
        var text = text
        while let head = pattern.first {
            if head == ASCII.star {
                let isDouble = pattern.dropFirst().first == ASCII.star
                if isDouble {
                    var rest = pattern.dropFirst(2)
                    if rest.first == ASCII.slash { rest = rest.dropFirst() }
                    // `**` matches any run of characters, folders included, at folder boundaries.
                    if match(rest, text) { return true }
                    for index in text.indices where text[index] == ASCII.slash {
                        if match(rest, text[(index + 1)...]) { return true }
                    }
                    return rest.isEmpty
                }
                let rest = pattern.dropFirst()
                var candidate = text
                while true {
                    if match(rest, candidate) { return true }
                    guard let first = candidate.first, first != ASCII.slash else { return false }
                    candidate = candidate.dropFirst()
                }
            }
            guard let character = text.first else { return false }
            if head == UInt8(ascii: "?") {
                guard character != ASCII.slash else { return false }
            } else if head == UInt8(ascii: "["), let close = pattern.dropFirst(2).firstIndex(of: UInt8(ascii: "]")) {
                guard matchesSet(pattern[(pattern.startIndex + 1)..<close], character) else { return false }
                pattern = pattern[close...]
            } else if head != character {
                return false
            }
            pattern = pattern.dropFirst()
            text = text.dropFirst()
        }
        return text.isEmpty
    }

    private static func matchesSet(_ set: ArraySlice<UInt8>, _ character: UInt8) -> Bool {
        var members = set
        let negated = members.first == UInt8(ascii: "!") || members.first == UInt8(ascii: "^")
        if negated { members = members.dropFirst() }
        var found = false
        var index = members.startIndex
        while index < members.endIndex {
            let low = members[index]
            if index + 2 < members.endIndex, members[index + 1] == ASCII.minus {
                if character >= low && character <= members[index + 2] { found = true }
                index += 3
            } else {
                if character == low { found = true }
                index += 1
            }
        }
        return found != negated
    }
}
