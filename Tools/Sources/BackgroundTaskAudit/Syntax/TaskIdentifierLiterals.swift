/// The string literals a file passes as `BGTaskScheduler` task identifiers, read back from the file's bytes: the
/// argument of `forTaskWithIdentifier:`, `registerForTaskWithIdentifier:`, `identifier:` and `initWithIdentifier:`
/// when it is a plain literal (no escapes, no interpolation but a leading bundle identifier) or a name this file gives
/// such a literal, for BT014.
enum TaskIdentifierLiterals {
    /// The labels whose string argument names a task.
    private static let labels: Set<String> = [
        "forTaskWithIdentifier", "registerForTaskWithIdentifier", "identifier", "initWithIdentifier",
    ]

    static func find(in tokens: [Token], bytes: [UInt8]) -> [Int: String] {
        var found: [Int: String] = [:]
        let constants = Self.constants(in: tokens, bytes: bytes)
        for index in tokens.indices.dropFirst(2) {
            guard tokens[index - 1].is(":"), tokens[index - 2].kind == .identifier,
                labels.contains(tokens[index - 2].text)
            else { continue }
            if tokens[index].kind == .string {
                if let text = value(at: Int(tokens[index].offset), in: bytes) { found[index] = text }
            } else if tokens[index].kind == .identifier {
                // `forTaskWithIdentifier: taskID`, `Self.refreshTaskID`: a constant of this file, by its last name.
                var last = index
                while last + 2 < tokens.count, tokens[last + 1].is("."), tokens[last + 2].kind == .identifier {
                    last += 2
                }
                guard last + 1 < tokens.count, endsArgument(at: last + 1, in: tokens),
                    let text = constants[tokens[last].text]
                else { continue }
                found[last] = text
            }
        }
        return found
    }

    /// Whether the token at `index` ends an argument: `,` `)` `]`, or the next label of an Objective-C message.
    private static func endsArgument(at index: Int, in tokens: [Token]) -> Bool {
        let token = tokens[index]
        if token.is(",") || token.is(")") || token.is("]") { return true }
        return token.kind == .identifier && index + 1 < tokens.count && tokens[index + 1].is(":")
    }

    /// The string constants the file declares: `let taskID = "…"`, `static let taskID: String = "…"`,
    /// `static NSString *const kTaskID = @"…"`, `#define kTaskID @"…"`. A name given two values is left out.
    private static func constants(in tokens: [Token], bytes: [UInt8]) -> [String: String] {
        var found: [String: String] = [:]
        var ambiguous: Set<String> = []
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            var before = index - 1
            if tokens[before].is("@") { before -= 1 }
            guard before >= 1, let text = value(at: Int(tokens[index].offset), in: bytes) else { continue }
            var name: String?
            if tokens[before].kind == .operator, tokens[before].text == "=" {
                let candidate = before - 1
                if candidate >= 2, tokens[candidate].kind == .identifier, tokens[candidate - 1].is(":"),
                    tokens[candidate - 2].kind == .identifier
                {
                    name = tokens[candidate - 2].text  // `let name: String = "…"`
                } else if candidate >= 0, tokens[candidate].kind == .identifier {
                    name = tokens[candidate].text
                }
            } else if tokens[before].kind == .identifier, tokens[before - 1].kind == .directive,
                tokens[before - 1].text.hasSuffix("define")
            {
                name = tokens[before].text
            }
            guard let name else { continue }
            if let earlier = found[name], earlier != text { ambiguous.insert(name) }
            found[name] = text
        }
        for name in ambiguous { found[name] = nil }
        return found
    }

    /// A literal's value: its plain contents, or `$(PRODUCT_BUNDLE_IDENTIFIER)` and the rest for a literal that starts
    /// with the bundle identifier interpolated (`"\(Bundle.main.bundleIdentifier!).refresh"`).
    private static func value(at offset: Int, in bytes: [UInt8]) -> String? {
        if let text = contents(at: offset, in: bytes) { return text }
        guard offset + 3 < bytes.count, bytes[offset] == UInt8(ascii: "\""), bytes[offset + 1] == UInt8(ascii: "\\"),
            bytes[offset + 2] == UInt8(ascii: "(")
        else { return nil }
        var depth = 1
        var end = offset + 3
        while end < bytes.count, end - offset <= 256, depth > 0 {
            if bytes[end] == UInt8(ascii: "(") { depth += 1 }
            if bytes[end] == UInt8(ascii: ")") { depth -= 1 }
            end += 1
        }
        let inner = String(decoding: bytes[(offset + 3)..<max(offset + 3, end - 1)], as: UTF8.self)
        guard depth == 0, inner.contains("bundleIdentifier"), let rest = plainText(from: end, in: bytes) else {
            return nil
        }
        return "$(PRODUCT_BUNDLE_IDENTIFIER)" + rest
    }

    /// A plain `"…"` (or Objective-C `@"…"`) literal's contents; `nil` for anything else.
    private static func contents(at offset: Int, in bytes: [UInt8]) -> String? {
        var start = offset
        if start < bytes.count, bytes[start] == UInt8(ascii: "@") { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        return plainText(from: start + 1, in: bytes)
    }

    /// The text from `start` up to the closing quote (at most 256 bytes); `nil` at an escape or a line break first.
    private static func plainText(from start: Int, in bytes: [UInt8]) -> String? {
        var end = start
        while end < bytes.count, end - start <= 256 {
            switch bytes[end] {
            case UInt8(ascii: "\""): return String(decoding: bytes[start..<end], as: UTF8.self)
            case UInt8(ascii: "\\"), UInt8(ascii: "\n"): return nil
            default: end += 1
            }
        }
        return nil
    }
}
