/// When a closure or block runs, judged by the call it is passed to.
enum ClosureTiming: Sendable, Equatable {
    /// Before the call returns: `sync`, `performAndWait`, `autoreleasepool`, `forEach`, `withLock`, …
    case synchronous
    /// Later: `async`, `asyncAfter`, `Task`, `dispatch_async`, `addOperation`, a completion handler, …
    case asynchronous(String)
    /// Not known; the rules that need "certainly now" treat it as later, the ones that need
    /// "certainly later" treat it as now.
    case unknown(String?)

    private static let synchronousCalls: Set<String> = [
        "sync", "dispatch_sync", "dispatch_barrier_sync", "performAndWait", "performBlockAndWait", "asyncAndWait",
        "autoreleasepool", "withLock", "withLockIfAvailable", "withExtendedLifetime", "assumeIsolated", "forEach",
        "map", "compactMap", "flatMap", "filter", "reduce", "first", "contains", "allSatisfy", "sorted", "sort",
        "enumerateObjectsUsingBlock", "enumerateKeysAndObjectsUsingBlock", "enumerateObjectsWithOptions",
        "withUnsafePointer", "withUnsafeMutablePointer", "withUnsafeBytes", "withCriticalRegion", "dispatch_once",
        "synchronized", "lock",
    ]

    private static let asynchronousCalls: Set<String> = [
        "async", "asyncAfter", "Task", "detached", "addOperation", "addOperationWithBlock", "addBarrierBlock",
        "perform", "performBlock", "dispatch_async", "dispatch_after", "dispatch_barrier_async",
        "dispatch_group_async", "dispatch_group_notify", "notify", "scheduledTimer",
        "scheduledTimerWithTimeInterval", "timerWithTimeInterval", "dataTask", "dataTaskWithURL",
        "dataTaskWithRequest", "downloadTask", "uploadTask", "completion", "completionHandler", "withCompletion",
        "then", "sink", "afterDelay", "run", "execute", "setEventHandler",
        // Reactive chains: RxSwift's `subscribe(onNext:)`, Combine's `sink(receiveValue:)`.
        "subscribe", "onNext", "onSuccess", "onCompleted", "onError", "receiveValue", "receiveCompletion",
    ]

    /// Classifies the call (or argument label) that receives the closure.
    init(call: String?, label: String?) {
        for candidate in [label, call].compactMap({ $0 }) {
            let lowered = candidate.lowercased()
            // `…Sync`, `…AndWait`, `dispatchSyncMainThreadSafe`, `performSyncOnMain`, a lock helper `synced`.
            let synchronousByName =
                (lowered.hasSuffix("sync") && !lowered.hasSuffix("async")) || lowered.hasSuffix("andwait")
                || lowered.hasPrefix("dispatchsync") || lowered.hasPrefix("performsync") || lowered.hasPrefix("runsync")
                || lowered == "synced"
                // A lock helper named for what it does with a block: `syncWriteAccessWithBlock:`, `syncBlock`.
                || (lowered.hasPrefix("sync") && !lowered.hasPrefix("synchroniz")
                    && (lowered.containsASCII("block") || lowered.containsASCII("access")
                        || lowered.containsASCII("lock")))
            if Self.synchronousCalls.contains(candidate) || synchronousByName {
                self = .synchronous
                return
            }
            if Self.asynchronousCalls.contains(candidate) || candidate.lowercased().hasSuffix("completion")
                || candidate.hasSuffix("CompletionHandler") || candidate.hasSuffix("Completion")
            {
                self = .asynchronous(call ?? candidate)
                return
            }
        }
        self = .unknown(call ?? label)
    }

    /// The call's name for messages (`DispatchQueue.main.async`-style code reads as `async`).
    var callName: String? {
        switch self {
        case .synchronous: nil
        case .asynchronous(let name): name
        case .unknown(let name): name
        }
    }
}
