/// A cheap byte scan for declarations, which tells the code model which files to read besides those that call the
/// APIs: the files that declare a function, method or type those files use (a helper that ends the task, a
/// superclass, an extension), without parsing any of them.
enum DeclaredNames {
    /// Keywords after which a word is a declared name.
    private static let introducers: Set<String> = [
        "func", "class", "struct", "enum", "actor", "extension", "protocol", "init",
        "@implementation", "@interface", "@protocol",
    ]

    /// Whether `bytes` declare one of `names`: a word right after `func`, `class`, `extension`, `@implementation`
    /// …, or (Objective-C) right after the `)` that closes a method's return type (`- (void)finishTask`).
    static func declaresAny(of names: Set<String>, in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        var previousWord = ""
        var previousByte: UInt8 = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if isWordStart(byte) {
                var end = index + 1
                while end < count, isWordByte(bytes[end]) { end += 1 }
                let word = String(decoding: bytes[index..<end], as: UTF8.self)
                if previousByte == UInt8(ascii: ")") || introducers.contains(previousWord), names.contains(word) {
                    return true
                }
                previousWord = word
                previousByte = 0
                index = end
                continue
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                previousByte = byte
                if byte != UInt8(ascii: "\n") { previousWord = "" }
            }
            index += 1
        }
        return false
    }

    /// Whether `bytes` contain one of `names` as a whole word anywhere (a call of a project's begin shim).
    static func mentionsAny(of names: Set<String>, in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        let lengths = Set(names.map(\.utf8.count))
        var index = 0
        let count = bytes.count
        while index < count {
            guard isWordStart(bytes[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < count, isWordByte(bytes[end]) { end += 1 }
            if lengths.contains(end - index), names.contains(String(decoding: bytes[index..<end], as: UTF8.self)) {
                return true
            }
            index = end
        }
        return false
    }

    private static func isWordStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x40  // a-z A-Z _ @
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isWordStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }
}
