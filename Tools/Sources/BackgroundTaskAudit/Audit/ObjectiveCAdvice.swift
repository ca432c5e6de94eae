import Foundation

/// The faces a rule's message recommends are Swift's; in an Objective-C file the message names the one Objective-C can
/// call instead: `BTKBackgroundTask`, from the BackgroundTaskKitObjC product.
enum ObjectiveCAdvice {
    static let face = "BTKBackgroundTask (the BackgroundTaskKitObjC product)"

    /// Longest first: a pair of Swift faces becomes one mention.
    private static let replacements: [(swift: String, objectiveC: String)] = [
        ("SafeBackgroundTask or BackgroundTaskManager", face),
        ("SafeBackgroundTask or withBackgroundTask", face),
        ("withBackgroundTask(\"Upload\")", "[BTKBackgroundTask beginWithName:@\"Upload\" expirationHandler:…]"),
        ("SafeBackgroundTask.begin(\"Upload\")", "[BTKBackgroundTask beginWithName:@\"Upload\" expirationHandler:…]"),
        ("SafeBackgroundTask", face),
        ("withBackgroundTask", face),
        ("BackgroundTaskManager", face),
    ]

    /// `message`, with the Swift faces it recommends replaced by the Objective-C one for a file in `language`.
    static func adapt(_ message: String, to language: SourceLanguage) -> String {
        guard language == .objectiveC else { return message }
        var message = message
        // A byte search (`utf8Range(of:)`), not Foundation's `range(of:)`, which bridges every message to `NSString`,
        // nor the standard library's `firstRange(of:)`, which compares grapheme by grapheme.
        for (swift, objectiveC) in replacements where message.utf8Range(of: swift) != nil {
            message = replacingWords(swift, with: objectiveC, in: message)
        }
        return message
    }

    /// `text` with each whole-word `word` replaced: `SafeBackgroundTask` in a sentence, not inside a method's
    /// name such as `beginSafeBackgroundTaskWithExpirationHandler`.
    private static func replacingWords(_ word: String, with replacement: String, in text: String) -> String {
        func isWordCharacter(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || character == "_"
        }
        var result = ""
        var rest = text[...]
        while let range = rest.utf8Range(of: word) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : result.last
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            result += rest[..<range.lowerBound]
            result += isWordCharacter(before) || isWordCharacter(after) ? String(rest[range]) : replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
