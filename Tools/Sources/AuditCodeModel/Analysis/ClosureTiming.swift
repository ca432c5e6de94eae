/// When a closure passed to a call runs, judged from the call's name: before the call returns, later, or unknown.
public enum ClosureTiming: Sendable, Equatable {
    /// Before the call returns, on the caller's thread: `sync`, `performAndWait`, `withLock`, `forEach`,
    /// `dispatch_sync`, `@synchronized` blocks.
    case synchronous
    /// After the call returns: `async`, `asyncAfter`, `Task { }`, `dispatch_async`, `addOperation`, `perform`, a URL
    /// session's `dataTask`, a reactive chain's `subscribe`.
    case deferred
    /// The call's name does not say.
    case unknown

    private static let synchronousNames: Set<String> = [
        "sync", "dispatch_sync", "performAndWait", "performBlockAndWait", "withLock", "withLockedValue",
        "autoreleasepool",
        "forEach", "map", "compactMap", "flatMap", "filter", "reduce", "contains", "first", "sorted",
        "enumerateObjectsUsingBlock", "withExtendedLifetime", "withUnsafeMutablePointer", "withUnsafePointer",
        "synchronized", "syncOnMain", "runSynchronously",
    ]
    private static let deferredNames: Set<String> = [
        "async", "asyncAfter", "Task", "detached", "dispatch_async", "dispatch_after", "dispatch_barrier_async",
        "dispatch_group_notify", "notify", "addOperation", "addOperationWithBlock", "addBarrierBlock", "perform",
        "performBlock", "performSelector", "schedule", "scheduledTimer", "scheduledTimerWithTimeInterval",
        "asyncAndWait", "sink", "observe", "addObserver", "addObserverForName", "dataTask", "uploadTask",
        "downloadTask", "dataTaskWithRequest", "run", "after", "subscribe",
    ]

    /// How a closure passed to `call` runs.
    public init(_ call: CodeCall) {
        if call.name == "asyncAndWait" || Self.synchronousNames.contains(call.name) {
            self = .synchronous
        } else if Self.deferredNames.contains(call.name) {
            self = .deferred
        } else {
            self = .unknown
        }
    }
}
