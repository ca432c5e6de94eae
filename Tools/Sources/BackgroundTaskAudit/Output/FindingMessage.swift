import AuditCodeModel

/// The message of a code-model finding: what happens on a device, the lines of its chain of evidence, and what to use
/// instead.
enum FindingMessage {
    /// What each rule's finding means on a device.
    private static let headlines: [String: String] = [
        "BT003": "Nothing ends this background task when time runs out, and iOS kills the app (0x8badf00d)",
        "BT004": "The expiration handler does not end the task before it returns, and iOS kills the app",
        "BT005": "The task's identifier is kept where a second begin overwrites it, and the first task is never ended",
        "BT006": "The expiration handler can read the identifier before it is stored, and end nothing",
        "BT007": "The task can be ended twice, or an old end can end a newer task",
        "BT008": "A path leaves without ending the task: it runs until iOS kills the app",
        "BT009": "The expiring activity ends when its block returns, before its work is done",
        "BT011": "A path of this launch handler never calls setTaskCompleted: iOS kills the app and runs it less often",
        "BT012": "The launch handler sets no expirationHandler: its work is not stopped when time runs out",
        "BT013": "The launch handler is registered after the app finished launching: BGTaskScheduler throws",
    ]

    /// What to use instead.
    private static let advice: [String: String] = [
        "BT009": "keep the block until the work is done and stop it when told `expired`, or use withBackgroundTask",
        "BT011": "complete the task on every path, or use SafeTaskScheduler (the BackgroundTaskScheduling product)",
        "BT012":
            "set task.expirationHandler to cancel the work, or use SafeTaskScheduler (the BackgroundTaskScheduling "
            + "product)",
        "BT013": "register in application(_:didFinishLaunchingWithOptions:), or use SafeTaskScheduler (the "
            + "BackgroundTaskScheduling product)",
    ]

    /// What to do instead in Objective-C, where the package has no face for `BGTaskScheduler`.
    private static let objectiveCAdvice: [String: String] = [
        "BT011": "call setTaskCompletedWithSuccess: on every path, the expiration handler's included",
        "BT012": "set task.expirationHandler to cancel the work",
        "BT013": "register in application:didFinishLaunchingWithOptions:",
    ]

    /// The message for `finding` in a file of `language`.
    static func text(for finding: AnalysisFinding, language: SourceLanguage) -> String {
        let headline = headlines[finding.ruleID] ?? (AuditRule.withID(finding.ruleID)?.summary ?? finding.ruleID)
        let chain = finding.chain.map { link in
            let place =
                link.location.path == finding.location.path
                ? "line \(link.location.line)" : "\(fileName(link.location.path)):\(link.location.line)"
            return "\(place): \(link.text)" + (link.isEstablished ? "" : " (not shown by the code the audit read)")
        }
        let prefix = finding.certainty == .suspected ? "Suspected: " : ""
        let instead =
            (language == .objectiveC ? objectiveCAdvice[finding.ruleID] : nil)
            ?? advice[finding.ruleID]
            ?? "end the task exactly once on every path, or use SafeBackgroundTask or withBackgroundTask"
        let message =
            "\(prefix)\(headline). \(chain.joined(separator: "; ")). Instead, \(instead)."
            + " (more: bgtask audit --explain \(finding.ruleID))"
        return ObjectiveCAdvice.adapt(message, to: language)
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
