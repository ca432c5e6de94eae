/// The reason string handed to `ProcessInfo`'s activity APIs, which want a non-empty description.
enum ActivityReason {
    static let fallback = "BackgroundTaskKit background task"  // used when a task has no name

    /// The task's name, or ``fallback`` when it is `nil` or empty.
    static func forTask(named name: String?) -> String {
        guard let name, !name.isEmpty else { return fallback }
        return name
    }
}
