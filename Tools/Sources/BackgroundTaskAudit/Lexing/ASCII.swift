/// The bytes the lexer and the file checks look at.
enum ASCII {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let tab = UInt8(ascii: "\t")
    static let space = UInt8(ascii: " ")
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let star = UInt8(ascii: "*")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backtick = UInt8(ascii: "`")
    static let hash = UInt8(ascii: "#")
    static let at = UInt8(ascii: "@")
    static let caret = UInt8(ascii: "^")
    static let dot = UInt8(ascii: ".")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == newline || byte == carriageReturn
    }

    /// Letters, `_`, `$`, and every non-ASCII byte (Swift allows Unicode identifiers).
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    /// Operator characters that join into one token; `^` and `.` stand alone.
    static func isOperator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "/"),
            UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "&"),
            UInt8(ascii: "|"), UInt8(ascii: "~"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }
}

extension String {
    /// Whether the text contains `word` (lowercase ASCII), ignoring ASCII case: a byte scan, which never calls into
    /// Foundation's string search (slow for many identifiers, and unsafe on the broken text a cut file can hold).
    func containsASCII(_ word: String) -> Bool {
        let bytes = Array(utf8)
        let pattern = Array(word.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return pattern.isEmpty }
        return (0...(bytes.count - pattern.count)).contains { start in
            pattern.indices.allSatisfy { bytes[start + $0] | 0x20 == pattern[$0] | 0x20 }
        }
    }
}

extension StringProtocol {
    /// The first range of `word` in the text, compared byte for byte in UTF-8: what the standard library's
    /// `firstRange(of:)` finds for a word that starts with an ASCII character, without its grapheme-by-grapheme
    /// comparison (most of an audit's time when every finding's message was searched that way).
    func utf8Range(of word: String) -> Range<String.Index>? {
        let pattern = Array(word.utf8)
        guard let first = pattern.first else { return nil }
        let view = utf8
        var start = view.startIndex
        while let found = view[start...].firstIndex(of: first) {
            var end = found
            var matched = true
            for byte in pattern {
                guard end < view.endIndex, view[end] == byte else {
                    matched = false
                    break
                }
                end = view.index(after: end)
            }
            if matched { return found..<end }
            start = view.index(after: found)
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes contain `pattern`, byte for byte.
    func containsBytes(_ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, count >= pattern.count else { return pattern.isEmpty }
        var index = 0
        let last = count - pattern.count
        while index <= last {
            if self[index] == first, pattern.indices.allSatisfy({ self[index + $0] == pattern[$0] }) { return true }
            index += 1
        }
        return false
    }
}
