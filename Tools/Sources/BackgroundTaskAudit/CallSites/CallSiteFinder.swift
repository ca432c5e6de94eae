import AuditCodeModel

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
                    if matches(buffer, at: index, "BackgroundTask") || matches(buffer, at: index, "ExpiringActivity")
                        || matches(buffer, at: index, "BGTask")
                    {
                        return true
                    }
                }
                index += 1
            }
            return false
        }
    }

    /// Whether the file names one of the system calls the code model starts from: a begin or an end of a background
    /// task, an expiring activity, a launch handler's registration or a task's completion. Narrower than
    /// ``mayContainCalls(_:)``, which a file that only declares a `UIBackgroundTaskIdentifier` passes: such a file is
    /// read into the code model only when a rule needs one of its declarations (``ModelPass``).
    static func mayMakeSystemCall(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index + 16 <= buffer.count {
                switch buffer[index] {
                case UInt8(ascii: "b") where matches(buffer, at: index, "beginBackgroundTask"),
                    UInt8(ascii: "e") where matches(buffer, at: index, "endBackgroundTask"),
                    UInt8(ascii: "E") where matches(buffer, at: index, "ExpiringActivity"),
                    UInt8(ascii: "o") where matches(buffer, at: index, "orTaskWithIdentifier"),
                    UInt8(ascii: "s") where matches(buffer, at: index, "setTaskCompleted"):
                    return true
                default:
                    index += 1
                }
            }
            return false
        }
    }

    /// The names of the system calls ``mayMakeSystemCall(_:)`` looks for, as whole identifiers: the code model's
    /// (``SystemCall/names``), with a launch handler's registration known by its label, not by the common `register`.
    static let systemCallNames = SystemCall.names.subtracting(["register"]).union(["forTaskWithIdentifier"])

    /// Whether the file's code (not its comments or string literals) names one of the system calls: what
    /// ``mayMakeSystemCall(_:)`` guesses from the bytes, decided from the tokens of a file already lexed.
    static func namesSystemCall(_ syntax: SourceSyntax) -> Bool {
        syntax.tokens.contains { $0.kind == .identifier && systemCallNames.contains($0.text) }
    }

    /// Whether any of the names occurs as a whole word (identifier) in the bytes: one linear scan.
    static func mentionsAnyWord(_ names: Set<String>, in bytes: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        let lengths = names.map(\.utf8.count)
        let shortest = lengths.min() ?? 0
        let longest = lengths.max() ?? 0
        let firstBytes = Set(names.compactMap(\.utf8.first))
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                guard ASCII.isIdentifierStart(byte) else {
                    index += 1
                    continue
                }
                let start = index
                while index < count, ASCII.isIdentifierContinuation(buffer[index]) { index += 1 }
                let length = index - start
                if length >= shortest, length <= longest, firstBytes.contains(byte),
                    names.contains(
                        String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self))
                {
                    return true
                }
            }
            return false
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
