/// The string literals a file passes as `BGTaskScheduler` task identifiers, read back from the file's bytes: the
/// argument of `forTaskWithIdentifier:`, `registerForTaskWithIdentifier:`, `identifier:` and `initWithIdentifier:`
/// when it is a plain literal (no escapes, no interpolation), for BT014.
enum TaskIdentifierLiterals {
    /// The labels whose string argument names a task.
    private static let labels: Set<String> = [
        "forTaskWithIdentifier", "registerForTaskWithIdentifier", "identifier", "initWithIdentifier",
    ]

    static func find(in tokens: [Token], bytes: [UInt8]) -> [Int: String] {
        var found: [Int: String] = [:]
        for index in tokens.indices.dropFirst(2) where tokens[index].kind == .string {
            guard tokens[index - 1].is(":"), tokens[index - 2].kind == .identifier,
                labels.contains(tokens[index - 2].text), let text = contents(at: Int(tokens[index].offset), in: bytes)
            else { continue }
            found[index] = text
        }
        return found
    }

    /// A plain `"…"` (or Objective-C `@"…"`) literal's contents; `nil` for anything else.
    private static func contents(at offset: Int, in bytes: [UInt8]) -> String? {
        var start = offset
        if start < bytes.count, bytes[start] == UInt8(ascii: "@") { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var end = start + 1
        while end < bytes.count, end - start <= 256 {
            switch bytes[end] {
            case UInt8(ascii: "\""): return String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
            case UInt8(ascii: "\\"), UInt8(ascii: "\n"): return nil
            default: end += 1
            }
        }
        return nil
    }
}
