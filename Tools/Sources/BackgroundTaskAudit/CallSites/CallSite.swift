/// A call of one of the system's background-task APIs, as written in the source.
struct CallSite: Sendable {
    /// Which API is called.
    enum Kind: Sendable, Equatable {
        /// `beginBackgroundTask(withName:expirationHandler:)`, `beginBackgroundTask(expirationHandler:)`,
        /// `beginBackgroundTaskWithName:expirationHandler:` or `beginBackgroundTaskWithExpirationHandler:`.
        case begin
        /// `endBackgroundTask(_:)` / `endBackgroundTask:`.
        case end
        /// `performExpiringActivity(withReason:using:)` / `performExpiringActivityWithReason:usingBlock:`.
        case expiringActivity
    }

    /// What an argument is, as far as the rules care.
    enum Argument: Sendable, Equatable {
        /// Not written (and the API's default applies).
        case absent
        /// `nil`, `NULL` or `Nil`.
        case nilLiteral
        /// `""` or `@""`.
        case emptyString
        /// A closure or block literal; the scope of its braces.
        case closure(scope: Int)
        /// Any other expression, as a token range.
        case expression(Range<Int>)
    }

    var kind: Kind
    /// The method-name token (`beginBackgroundTask`, `beginBackgroundTaskWithName`, …).
    var nameToken: Int
    /// The first token of the whole expression, receiver included.
    var start: Int
    /// The last token of the call (the closing `)`, `]` or trailing closure's `}`).
    var end: Int
    /// The task name (begin) or the activity's reason (expiring activity).
    var name: Argument
    /// The expiration handler (begin) or the activity block (expiring activity).
    var handler: Argument
    /// The identifier passed to an end call.
    var endArgument: Range<Int>?
    /// A call of one of the code base's own shims (``ProjectVocabulary``) rather than of the system's API.
    var isShimCall = false
}
