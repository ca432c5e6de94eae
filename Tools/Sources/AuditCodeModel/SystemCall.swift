/// A call of one of the system's background-time APIs, recognized the same way in both languages.
public enum SystemCall: Sendable {
    /// `beginBackgroundTask(withName:expirationHandler:)`, `beginBackgroundTask(expirationHandler:)`, and the
    /// Objective-C `beginBackgroundTaskWithName:expirationHandler:` / `beginBackgroundTaskWithExpirationHandler:`:
    /// the name (`nil` when not written) and the handler (`nil` when not written).
    case begin(name: CodeExpression?, handler: CodeExpression?)
    /// `endBackgroundTask(_:)` / `endBackgroundTask:`, with the identifier passed (seen through a
    /// `UIBackgroundTaskIdentifier(rawValue: taskId)` wrapper: then `taskId`).
    case end(CodeExpression?)
    /// `performExpiringActivity(withReason:using:)` / `performExpiringActivityWithReason:usingBlock:`.
    case expiringActivity(reason: CodeExpression?, block: CodeExpression?)
    /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)` /
    /// `registerForTaskWithIdentifier:usingQueue:launchHandler:`.
    case register(identifier: CodeExpression?, handler: CodeExpression?)
    /// `setTaskCompleted(success:)` / `setTaskCompletedWithSuccess:`.
    case setTaskCompleted

    /// The lengths, in UTF-8 bytes, of the names below, as a bit mask: most calls are rejected by their length
    /// before any string comparison (the rules ask this of every call, often several times).
    private static let nameLengths: UInt64 = names.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }

    /// The base names (Swift) and first selector pieces (Objective-C) of the system calls.
    public static let names: Set<String> = [
        "beginBackgroundTask", "beginBackgroundTaskWithName", "beginBackgroundTaskWithExpirationHandler",
        "endBackgroundTask", "performExpiringActivity", "performExpiringActivityWithReason", "register",
        "registerForTaskWithIdentifier", "setTaskCompleted", "setTaskCompletedWithSuccess",
    ]

    /// `UIBackgroundTaskIdentifier(rawValue: taskId)` → `taskId`: a project that keeps the raw value (in a dictionary
    /// of `Int`s, say) ends the task it names.
    private static func unwrappingIdentifier(_ expression: CodeExpression) -> CodeExpression {
        guard case .call(let wrapper) = expression, wrapper.receiver == nil,
            wrapper.name == "UIBackgroundTaskIdentifier", wrapper.arguments.count == 1,
            wrapper.arguments[0].label == "rawValue"
        else { return expression }
        return wrapper.arguments[0].value
    }

    private static func isObjectiveC(_ path: String) -> Bool {
        path.hasSuffix(".m") || path.hasSuffix(".mm") || path.hasSuffix(".h")
    }

    /// What `call` is, or `nil` for any other call.
    public init?(_ call: CodeCall) {
        let length = call.name.utf8.count
        guard length < 64, Self.nameLengths & (1 << UInt64(length)) != 0 else { return nil }
        let labels = call.arguments.map(\.label)
        switch call.name {
        case "beginBackgroundTask" where labels.allSatisfy { [nil, "withName", "expirationHandler"].contains($0) }:
            // Swift: the name is labelled; the handler is labelled or the trailing closure.
            guard labels.filter({ $0 == nil }).count <= 1 else { return nil }
            // `[self beginBackgroundTask]`: UIKit has no such selector, so it is the project's own method.
            guard !labels.isEmpty || !Self.isObjectiveC(call.location.path) else { return nil }
            let handler =
                call.argument(labelled: "expirationHandler") ?? call.arguments.first { $0.label == nil }?.value
            self = .begin(name: call.argument(labelled: "withName"), handler: handler)
        case "beginBackgroundTaskWithName" where labels == ["beginBackgroundTaskWithName", "expirationHandler"]:
            self = .begin(
                name: call.argument(labelled: "beginBackgroundTaskWithName"),
                handler: call.argument(labelled: "expirationHandler"))
        case "beginBackgroundTaskWithExpirationHandler" where labels == ["beginBackgroundTaskWithExpirationHandler"]:
            self = .begin(name: nil, handler: call.arguments.first?.value)
        // `endBackgroundTask(_:)` or `[app endBackgroundTask:task]`; `endBackgroundTask(taskName:)` is a project's.
        case "endBackgroundTask" where labels == [nil] || labels == ["endBackgroundTask"]:
            self = .end(call.arguments.first.map { Self.unwrappingIdentifier($0.value) })
        case "performExpiringActivity" where labels.first == "withReason":
            let block = call.argument(labelled: "using") ?? call.arguments.first { $0.label == nil }?.value
            self = .expiringActivity(reason: call.argument(labelled: "withReason"), block: block)
        case "performExpiringActivityWithReason" where labels == ["performExpiringActivityWithReason", "usingBlock"]:
            self = .expiringActivity(
                reason: call.argument(labelled: "performExpiringActivityWithReason"),
                block: call.argument(labelled: "usingBlock"))
        case "register" where labels.first == "forTaskWithIdentifier":
            let handler = call.argument(labelled: "launchHandler") ?? call.arguments.first { $0.label == nil }?.value
            self = .register(identifier: call.argument(labelled: "forTaskWithIdentifier"), handler: handler)
        case "registerForTaskWithIdentifier" where labels.first == "registerForTaskWithIdentifier":
            self = .register(
                identifier: call.argument(labelled: "registerForTaskWithIdentifier"),
                handler: call.argument(labelled: "launchHandler"))
        case "setTaskCompleted" where labels == ["success"], "setTaskCompletedWithSuccess":
            self = .setTaskCompleted
        default:
            return nil
        }
    }
}
