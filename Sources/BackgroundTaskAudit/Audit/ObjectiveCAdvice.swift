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
        for (swift, objectiveC) in replacements where message.contains(swift) {
            message = message.replacingOccurrences(of: swift, with: objectiveC)
        }
        return message
    }
}
