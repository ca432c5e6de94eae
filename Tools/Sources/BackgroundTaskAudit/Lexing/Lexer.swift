/// Splits Swift or Objective-C source into tokens, skipping whitespace, comments and the contents of
/// string and character literals.
///
/// It knows every literal form that could hide a call from a naive text search or fake one: Swift
/// single-line, multi-line (`"""`) and raw (`#"…"#`) strings with interpolations (`\(…)`, `\#(…)`),
/// nested `/* */` comments and `#/…/#` regex literals; Objective-C `"…"`, `@"…"`, `'…'` and C++ raw
/// strings (`R"x(…)x"`). It never fails: an unterminated literal or comment ends at the end of its
/// line or of the file, and every step moves forward, so the time is linear in the file's size.
struct Lexer {
    /// The tokens of a file and its suppression comments.
    struct Output: Sendable {
        var tokens: [Token]
        var suppressions: [SuppressionComment]
    }

    /// Tokenizes `bytes` (UTF-8) as `language`.
    static func tokenize(_ bytes: [UInt8], language: SourceLanguage) -> Output {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = LexerScanner(bytes: buffer, isSwift: language == .swift)
            scanner.run()
            return Output(tokens: scanner.tokens, suppressions: scanner.suppressions)
        }
    }
}

/// The lexer's cursor over one file.
private struct LexerScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let isSwift: Bool
    var tokens: [Token] = []
    var suppressions: [SuppressionComment] = []
    private var index = 0
    private var line = 1
    private var lineStart = 0

    /// How deep string interpolations may nest before the rest is read as plain string content.
    private static let maximumInterpolationNesting = 32

    init(bytes: UnsafeBufferPointer<UInt8>, isSwift: Bool) {
        self.bytes = bytes
        self.isSwift = isSwift
        tokens.reserveCapacity(bytes.count / 5)
    }

    private func byte(at position: Int) -> UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private mutating func newLine(at position: Int) {
        line += 1
        lineStart = position + 1
    }

    private func text(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private mutating func emit(_ kind: Token.Kind, from start: Int, line: Int, lineStart: Int, text: String) {
        tokens.append(
            Token(
                kind: kind,
                text: text,
                offset: Int32(truncatingIfNeeded: start),
                line: Int32(truncatingIfNeeded: line),
                column: Int32(truncatingIfNeeded: start - lineStart + 1)
            )
        )
    }

    mutating func run() {
        // A UTF-8 byte-order mark is not code: skip it, and count columns from after it.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        while index < bytes.count {
            let start = index
            let startLine = line
            let startLineStart = lineStart
            let current = bytes[index]
            switch current {
            case ASCII.newline:
                newLine(at: index)
                index += 1
            case ASCII.space, ASCII.tab, ASCII.carriageReturn, 0x0B, 0x0C:
                index += 1
            case ASCII.slash where byte(at: index + 1) == ASCII.slash:
                skipLineComment()
            case ASCII.slash where byte(at: index + 1) == ASCII.star:
                skipBlockComment()
            case ASCII.quote:
                if isSwift { skipSwiftString(hashes: 0, nesting: 0) } else { skipCString(terminator: ASCII.quote) }
                emitString(from: start, line: startLine, lineStart: startLineStart)
            case ASCII.apostrophe where !isSwift:
                skipCString(terminator: ASCII.apostrophe)
                emitString(from: start, line: startLine, lineStart: startLineStart)
            case ASCII.hash where isSwift:
                lexSwiftPound(start: start, line: startLine, lineStart: startLineStart)
            case ASCII.at where !isSwift:
                lexObjectiveCAt(start: start, line: startLine, lineStart: startLineStart)
            case ASCII.backtick where isSwift:
                index += 1
                let nameStart = index
                while index < bytes.count, bytes[index] != ASCII.backtick, bytes[index] != ASCII.newline { index += 1 }
                let name = text(from: nameStart, to: index)
                if byte(at: index) == ASCII.backtick { index += 1 }
                emit(.identifier, from: start, line: startLine, lineStart: startLineStart, text: name)
            case ASCII.caret:
                index += 1
                emit(.operator, from: start, line: startLine, lineStart: startLineStart, text: "^")
            case _ where ASCII.isDigit(current):
                skipNumber()
                emit(
                    .number, from: start, line: startLine, lineStart: startLineStart, text: text(from: start, to: index)
                )
            case _ where ASCII.isIdentifierStart(current):
                lexIdentifier(start: start, line: startLine, lineStart: startLineStart)
            case _ where ASCII.isOperator(current):
                index += 1
                while index < bytes.count, ASCII.isOperator(bytes[index]) {
                    let next = byte(at: index + 1)
                    if bytes[index] == ASCII.slash, next == ASCII.slash || next == ASCII.star { break }
                    index += 1
                }
                emit(
                    .operator, from: start, line: startLine, lineStart: startLineStart,
                    text: text(from: start, to: index))
            default:
                index += 1
                emit(
                    .punctuation, from: start, line: startLine, lineStart: startLineStart,
                    text: text(from: start, to: index))
            }
        }
    }

    // MARK: - Identifiers, numbers, directives

    private mutating func lexIdentifier(start: Int, line startLine: Int, lineStart startLineStart: Int) {
        index += 1
        while index < bytes.count, ASCII.isIdentifierContinuation(bytes[index]) { index += 1 }
        let name = text(from: start, to: index)
        if !isSwift, byte(at: index) == ASCII.quote, ["R", "LR", "uR", "UR", "u8R"].contains(name) {
            skipCPlusPlusRawString()
            emitString(from: start, line: startLine, lineStart: startLineStart)
            return
        }
        emit(.identifier, from: start, line: startLine, lineStart: startLineStart, text: name)
    }

    private mutating func skipNumber() {
        index += 1
        while index < bytes.count {
            let current = bytes[index]
            if ASCII.isIdentifierContinuation(current) {
                index += 1
            } else if current == ASCII.dot, ASCII.isDigit(byte(at: index + 1)) {
                index += 1
            } else if current == ASCII.plus || current == ASCII.minus,
                [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(bytes[index - 1])
            {
                index += 1
            } else if !isSwift, current == ASCII.apostrophe, ASCII.isIdentifierContinuation(byte(at: index + 1)) {
                index += 1  // a C++14 digit separator
            } else {
                return
            }
        }
    }

    private mutating func lexSwiftPound(start: Int, line startLine: Int, lineStart startLineStart: Int) {
        var hashes = 0
        while byte(at: index + hashes) == ASCII.hash { hashes += 1 }
        let next = byte(at: index + hashes)
        if next == ASCII.quote {
            index += hashes
            skipSwiftString(hashes: hashes, nesting: 0)
            emitString(from: start, line: startLine, lineStart: startLineStart)
        } else if next == ASCII.slash {
            index += hashes + 1
            skipSwiftRegex(hashes: hashes)
            emit(.string, from: start, line: startLine, lineStart: startLineStart, text: "\"…\"")
        } else if hashes == 1, ASCII.isIdentifierStart(next) {
            index += 1
            while index < bytes.count, ASCII.isIdentifierContinuation(bytes[index]) { index += 1 }
            emit(
                .directive, from: start, line: startLine, lineStart: startLineStart, text: text(from: start, to: index))
        } else {
            index += 1
            emit(.punctuation, from: start, line: startLine, lineStart: startLineStart, text: "#")
        }
    }

    private mutating func lexObjectiveCAt(start: Int, line startLine: Int, lineStart startLineStart: Int) {
        let next = byte(at: index + 1)
        if next == ASCII.quote {
            index += 1
            skipCString(terminator: ASCII.quote)
            emitString(from: start, line: startLine, lineStart: startLineStart)
        } else if ASCII.isIdentifierStart(next) {
            index += 1
            while index < bytes.count, ASCII.isIdentifierContinuation(bytes[index]) { index += 1 }
            emit(
                .directive, from: start, line: startLine, lineStart: startLineStart, text: text(from: start, to: index))
        } else {
            index += 1
            emit(.punctuation, from: start, line: startLine, lineStart: startLineStart, text: "@")
        }
    }

    // MARK: - Comments

    private mutating func skipLineComment() {
        let start = index
        while index < bytes.count, bytes[index] != ASCII.newline { index += 1 }
        recordSuppression(from: start, to: index, startLine: line)
    }

    private mutating func skipBlockComment() {
        let start = index
        let startLine = line
        index += 2
        var depth = 1
        while index < bytes.count {
            let current = bytes[index]
            if current == ASCII.star, byte(at: index + 1) == ASCII.slash {
                index += 2
                depth -= 1
                if depth == 0 { break }
            } else if isSwift, current == ASCII.slash, byte(at: index + 1) == ASCII.star {
                index += 2
                depth += 1
            } else {
                if current == ASCII.newline { newLine(at: index) }
                index += 1
            }
        }
        recordSuppression(from: start, to: index, startLine: startLine)
    }

    private mutating func recordSuppression(from start: Int, to end: Int, startLine: Int) {
        let marker = SuppressionMarker.bytes
        guard end - start >= marker.count else { return }
        var position = start
        while position <= end - marker.count {
            if bytes[position] == marker[0], bytes[position + 1] == marker[1] {
                var matched = true
                for offset in 2..<marker.count where bytes[position + offset] != marker[offset] {
                    matched = false
                    break
                }
                if matched {
                    suppressions.append(
                        SuppressionComment(text: text(from: start, to: end), startLine: startLine, endLine: line)
                    )
                    return
                }
            }
            position += 1
        }
    }

    // MARK: - Literals

    private mutating func emitString(from start: Int, line startLine: Int, lineStart startLineStart: Int) {
        emit(
            .string, from: start, line: startLine, lineStart: startLineStart,
            text: isEmptyLiteral(start) ? "\"\"" : "\"…\"")
    }

    /// Whether the literal that starts at `start` and ends at `index` has no characters.
    private func isEmptyLiteral(_ start: Int) -> Bool {
        var open = start
        while open < index, bytes[open] != ASCII.quote { open += 1 }
        var close = index
        while close > open, bytes[close - 1] != ASCII.quote { close -= 1 }
        guard close > open else { return false }
        let inner = close - 1 - (open + 1)
        if inner == 0 { return true }
        // `""""""` (empty multi-line) spans lines and holds only a newline.
        if inner >= 4, byte(at: open + 1) == ASCII.quote, byte(at: open + 2) == ASCII.quote {
            return (open + 3..<close - 3).allSatisfy { ASCII.isWhitespace(bytes[$0]) }
        }
        return false
    }

    /// Skips a Swift string whose opening quote is at `index`, preceded by `hashes` `#` characters.
    private mutating func skipSwiftString(hashes: Int, nesting: Int) {
        let isMultiline = byte(at: index + 1) == ASCII.quote && byte(at: index + 2) == ASCII.quote
        index += isMultiline ? 3 : 1
        while index < bytes.count {
            let current = bytes[index]
            if current == ASCII.backslash {
                var after = index + 1
                var count = 0
                while count < hashes, byte(at: after) == ASCII.hash {
                    count += 1
                    after += 1
                }
                guard count == hashes else {
                    index += 1
                    continue
                }
                if byte(at: after) == ASCII.openParenthesis, nesting < Self.maximumInterpolationNesting {
                    index = after + 1
                    skipInterpolation(nesting: nesting + 1)
                } else {
                    if byte(at: after) == ASCII.newline { newLine(at: after) }
                    index = min(after + 1, bytes.count)
                }
            } else if current == ASCII.quote {
                let quotes = isMultiline ? 3 : 1
                var closes = (0..<quotes).allSatisfy { byte(at: index + $0) == ASCII.quote }
                if closes {
                    closes = (0..<hashes).allSatisfy { byte(at: index + quotes + $0) == ASCII.hash }
                }
                if closes {
                    index += quotes + hashes
                    return
                }
                index += 1
            } else if current == ASCII.newline {
                guard isMultiline else { return }  // unterminated: the string ends with its line
                newLine(at: index)
                index += 1
            } else {
                index += 1
            }
        }
    }

    /// Skips an interpolation's expression up to and including its closing parenthesis.
    private mutating func skipInterpolation(nesting: Int) {
        var depth = 1
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case ASCII.openParenthesis:
                depth += 1
                index += 1
            case ASCII.closeParenthesis:
                depth -= 1
                index += 1
                if depth == 0 { return }
            case ASCII.quote:
                skipSwiftString(hashes: 0, nesting: nesting)
            case ASCII.hash:
                var hashes = 0
                while byte(at: index + hashes) == ASCII.hash { hashes += 1 }
                if byte(at: index + hashes) == ASCII.quote {
                    index += hashes
                    skipSwiftString(hashes: hashes, nesting: nesting)
                } else {
                    index += hashes
                }
            case ASCII.newline:
                newLine(at: index)
                index += 1
            default:
                index += 1
            }
        }
    }

    private mutating func skipSwiftRegex(hashes: Int) {
        while index < bytes.count {
            let current = bytes[index]
            if current == ASCII.backslash {
                index += 2
            } else if current == ASCII.slash, (0..<hashes).allSatisfy({ byte(at: index + 1 + $0) == ASCII.hash }) {
                index += 1 + hashes
                return
            } else if current == ASCII.newline {
                guard hashes > 0 else { return }
                newLine(at: index)
                index += 1
            } else {
                index += 1
            }
        }
        index = min(index, bytes.count)
    }

    /// Skips a C string or character literal whose opening delimiter is at `index`.
    private mutating func skipCString(terminator: UInt8) {
        index += 1
        while index < bytes.count {
            let current = bytes[index]
            if current == ASCII.backslash {
                if byte(at: index + 1) == ASCII.newline { newLine(at: index + 1) }
                index += 2
            } else if current == terminator {
                index += 1
                return
            } else if current == ASCII.newline {
                return
            } else {
                index += 1
            }
        }
        index = min(index, bytes.count)
    }

    /// Skips `R"delimiter( … )delimiter"`; `index` is at the quote.
    private mutating func skipCPlusPlusRawString() {
        index += 1
        let delimiterStart = index
        while index < bytes.count, bytes[index] != ASCII.openParenthesis, bytes[index] != ASCII.newline,
            index - delimiterStart <= 16
        {
            index += 1
        }
        guard byte(at: index) == ASCII.openParenthesis else { return }
        let delimiter = Array(bytes[delimiterStart..<index])
        index += 1
        while index < bytes.count {
            if bytes[index] == ASCII.closeParenthesis,
                delimiter.indices.allSatisfy({ byte(at: index + 1 + $0) == delimiter[$0] }),
                byte(at: index + 1 + delimiter.count) == ASCII.quote
            {
                index += delimiter.count + 2
                return
            }
            if bytes[index] == ASCII.newline { newLine(at: index) }
            index += 1
        }
    }
}

/// The text that marks a suppression comment.
enum SuppressionMarker {
    static let text = "bgtask:ignore"
    static let bytes = Array(text.utf8)
}
