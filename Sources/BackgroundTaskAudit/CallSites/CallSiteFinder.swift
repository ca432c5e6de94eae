/// Finds every call of the system's background-task APIs in a file, in both languages.
///
/// Swift: the argument labels decide; `withName:` / `expirationHandler:` (or none, or a trailing
/// closure) for begin, one unlabelled argument for end, `withReason:` / `using:` for the expiring
/// activity. Calls with other labels are other APIs (for example BackgroundTaskKit's own
/// `BackgroundTaskBackend.beginBackgroundTask(named:expirationHandler:)`) and are not reported.
/// Declarations (`func beginBackgroundTask(…)`) and references (`#selector(…)`,
/// `beginBackgroundTask(withName:expirationHandler:)` without arguments) are not calls.
///
/// Objective-C: message sends whose selector is exactly one of the system's, through any receiver.
enum CallSiteFinder {
    static func callSites(in syntax: SourceSyntax, vocabulary: ProjectVocabulary) -> [CallSite] {
        var sites: [CallSite] = []
        let swift = SwiftCallParser(syntax: syntax, vocabulary: vocabulary)
        let objectiveC = ObjectiveCCallParser(syntax: syntax, vocabulary: vocabulary)
        for index in syntax.tokens.indices where syntax.tokens[index].kind == .identifier {
            let site: CallSite?
            if syntax.isSwift {
                site = swift.callSite(at: index)
            } else {
                site = objectiveC.callSite(at: index)
            }
            if let site { sites.append(site) }
        }
        return sites
    }

    /// Whether the file can contain a call at all: a cheap byte search that lets most files skip lexing.
    static func mayContainCalls(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            var index = 0
            // "BackgroundTask" (begin…, end…) and "ExpiringActivity" (perform…): both contain "round"
            // or "ngAct" at a fixed offset; check for the shared "Background"/"Expiring" prefixes.
            while index + 8 <= count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "B") || byte == UInt8(ascii: "E") {
                    if matches(buffer, at: index, "BackgroundTask") || matches(buffer, at: index, "ExpiringActivity") {
                        return true
                    }
                }
                index += 1
            }
            return false
        }
    }

    /// Whether any of the names occurs in the bytes (a shim's name, before lexing).
    static func mayMention(_ names: [String], in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            names.contains { name in
                let pattern = Array(name.utf8)
                guard let first = pattern.first, pattern.count <= buffer.count else { return false }
                var index = 0
                while index + pattern.count <= buffer.count {
                    if buffer[index] == first {
                        var offset = 1
                        while offset < pattern.count, buffer[index + offset] == pattern[offset] { offset += 1 }
                        if offset == pattern.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    private static func matches(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= buffer.count else { return false }
        return word.withUTF8Buffer { pattern in
            for offset in 0..<length where buffer[index + offset] != pattern[offset] { return false }
            return true
        }
    }
}
