/// Where a piece of code runs, as far as the project shows: on the main thread, off it, or not known.
public enum RunsOn: Sendable, Equatable {
    /// On the main thread, and why (`@MainActor`, a `DispatchQueue.main` closure, a life-cycle method).
    case main(String)
    /// Off the main thread, and why; `isShown` is false when it rests on something the index cannot see (a queue
    /// held in a variable, which is not the main queue unless somebody made it so).
    case offMain(String, isShown: Bool)
    /// Nothing the index reads says.
    case unknown
}

/// Finds where a call runs: from the closures around it (a queue's `async`, a detached task, `MainActor.run`), the
/// body's isolation and type, the UIKit life-cycle methods that run on the main thread, and else from the project's
/// callers of its method, followed a few calls up.
public struct ThreadResolver: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex
    /// How many callers up it looks.
    public var depth = 3

    /// Creates a resolver over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// Where `target` (a call in `body`, in a closure inside it included) runs.
    public func runsOn(_ target: CodeCall, in body: CodeBody) -> RunsOn {
        runsOn(target.location, in: body, depth: depth)
    }

    private func runsOn(_ place: CodeRange, in body: CodeBody, depth: Int) -> RunsOn {
        var innermost: RunsOn?
        var inTask = false
        Self.closureContexts(of: place, in: body.steps) { context in
            if let context { innermost = context } else { inTask = true }
        }
        if let innermost { return innermost }
        let outer = runsOn(body: body, depth: depth)
        // `Task { }` inherits the actor of the code around it: with none, it runs on the global executor.
        if inTask, !isActorIsolated(body) {
            return .offMain("it runs in a `Task` that inherits no actor, on the global executor", isShown: true)
        }
        return outer
    }

    /// Where a declared body runs, from its declaration, its type and its callers.
    private func runsOn(body: CodeBody, depth: Int) -> RunsOn {
        if body.isolation == .mainActor { return .main("it is `@MainActor`") }
        if case .actor(let name) = body.isolation { return .offMain("it runs on the actor `\(name)`", isShown: true) }
        if let name = body.name,
            Self.mainThreadMethods.contains(name) || name.hasPrefix("viewDid")
                || name.hasPrefix("viewWill")
        {
            return .main("UIKit calls `\(name)` on the main thread")
        }
        if let type = body.typeName {
            if index.isMainActor(type) { return .main("`\(type)` is `@MainActor`") }
            if inheritsMainThreadType(type) { return .main("`\(type)` is a UIKit type that runs on the main thread") }
        }
        // An `async` function isolated to no actor runs on the global executor (SE-0338; a module built with
        // `NonisolatedNonsendingByDefault` runs it on its caller's actor instead).
        if body.isAsync, body.kind != .closure, !isActorIsolated(body) {
            return .offMain(
                "`\(body.name ?? "it")` is `async` and isolated to no actor: it runs on the global executor",
                isShown: true)
        }
        if let name = body.name, Self.reactNativeExports.contains(name), let type = body.typeName {
            return reactNativeQueue(of: type)
        }
        guard depth > 0, let name = body.name, body.kind != .closure else { return .unknown }
        // A selector observer of UIKit's application or scene notifications: UIKit posts them on the main thread.
        if index.callers(of: "addObserver").contains(where: { caller in
            caller.calls.contains { call in
                call.name == "addObserver" && Self.observesUIKitNotification(call)
                    && call.argument(labelled: "selector").map { $0.names.contains(name) } == true
            }
        }) {
            return .main("it observes a UIKit application notification, which UIKit posts on the main thread")
        }
        // An initializer is called by its type's name, which the index does not follow.
        guard name != "init" else { return .unknown }
        // The project's callers of this method, followed up.
        var found: [(RunsOn, CodeCall, CodeBody, resolves: Bool)] = []
        for caller in index.callers(of: name).prefix(8) {
            for call in caller.calls where call.name == name {
                // A call that can reach this body: shown when the receiver's type is known, else by its name only.
                let resolution = index.resolve(call, in: caller.typeName, locals: caller.steps)
                guard resolution.declarations.contains(where: { $0 === body }) else { continue }
                found.append(
                    (runsOn(call.location, in: caller, depth: depth - 1), call, caller, resolution.isShown))
            }
        }
        // Off the main thread on one path is enough; shown beats not shown.
        for wantShown in [true, false] {
            for (answer, call, caller, resolves) in found {
                guard case .offMain(let reason, let shownThere) = answer else { continue }
                let isShown = shownThere && resolves
                guard isShown == wantShown else { continue }
                let file = call.location.path.split(separator: "/").last.map(String.init) ?? call.location.path
                let from = "called from `\(caller.name ?? "a closure")` (\(file):\(call.location.line))"
                return .offMain(
                    reason.hasPrefix("called from") ? "\(from), \(reason)" : "\(from), where \(reason)",
                    isShown: isShown)
            }
        }
        let answers = found.map(\.0)
        if !answers.isEmpty, answers.allSatisfy({ if case .main = $0 { true } else { false } }) {
            return .main("every caller in the project runs it on the main thread")
        }
        return .unknown
    }

    /// The macros that export an Objective-C method to React Native's JavaScript; the Objective-C front end names the
    /// method's body by its macro.
    public static let reactNativeExports: Set<String> = [
        "RCT_EXPORT_METHOD", "RCT_REMAP_METHOD", "RCT_EXPORT_BLOCKING_SYNCHRONOUS_METHOD",
    ]

    /// React Native calls a module's exported methods on the module's `methodQueue`: the main queue when the module's
    /// `methodQueue` returns it, else a queue React Native makes for the module (or, for a blocking synchronous
    /// method, the JavaScript thread).
    private func reactNativeQueue(of type: String) -> RunsOn {
        let onMain = index.methods(named: "methodQueue", in: type).contains { method in
            method.calls.contains { $0.name == "dispatch_get_main_queue" }
        }
        return onMain
            ? .main("React Native calls `\(type)`'s exported methods on its `methodQueue`, the main queue")
            : .offMain(
                "React Native calls `\(type)`'s exported methods on the module's own queue (its `methodQueue` is not "
                    + "the main queue)", isShown: true)
    }

    private static let mainThreadMethods: Set<String> = [
        "applicationDidEnterBackground", "applicationWillResignActive", "applicationWillEnterForeground",
        "applicationDidBecomeActive", "applicationWillTerminate", "sceneDidEnterBackground", "sceneWillResignActive",
        "sceneWillEnterForeground", "sceneDidBecomeActive", "application", "scene", "viewDidLoad", "awakeFromNib",
        "layoutSubviews", "didMoveToWindow",
    ]

    private static let mainThreadTypes: Set<String> = [
        "UIViewController", "UITableViewController", "UICollectionViewController", "UINavigationController",
        "UITabBarController", "UIView", "UIResponder", "UIApplicationDelegate", "UIWindowSceneDelegate",
        "UISceneDelegate", "UIHostingController", "View", "App",
    ]

    private func inheritsMainThreadType(_ typeName: String) -> Bool {
        var visited: Set<String> = []
        var current: [String] = [typeName]
        while let type = current.popLast(), visited.insert(type).inserted, visited.count < 12 {
            for declaration in index.types(named: type) {
                if declaration.inherits.contains(where: Self.mainThreadTypes.contains) { return true }
                current += declaration.inherits
            }
        }
        return false
    }

    /// Whether `body` is isolated to an actor (the main actor included) by its declaration or its type.
    private func isActorIsolated(_ body: CodeBody) -> Bool {
        switch body.isolation {
        case .mainActor, .actor: return true
        case .nonisolated: return false
        case .unstated:
            guard let type = body.typeName else { return false }
            return index.isMainActor(type) || inheritsMainThreadType(type)
                || index.types(named: type).contains { $0.kind == .actor }
        }
    }

    /// Calls `found` with the context of every closure around `place` in `steps`, outermost first: `nil` for a
    /// `Task { }` that states no actor (it runs where the code around it is isolated).
    private static func closureContexts(of place: CodeRange, in steps: [Step], found: (RunsOn?) -> Void) {
        for step in steps where step.location.contains(line: place.line) {
            for call in StepWalk.ownCalls(of: step) {
                // A closure that starts after `place` on its line (the target's own handler) does not hold it.
                for closure in call.closures
                where closure.location.contains(line: place.line)
                    && (closure.location.line, closure.location.column) < (place.line, place.column)
                {
                    if closure.isolation == .mainActor {
                        found(.main("it runs in a `@MainActor` closure"))
                    } else if let context = context(ofClosurePassedTo: call) {
                        found(context)
                    } else if call.name == "Task", call.receiver == nil {
                        found(nil)
                    } else if case .begin = SystemCall(call) {
                        found(.main("the expiration handler runs on the main thread"))
                    } else if ClosureTiming(call) != .synchronous {
                        // A callback (a completion handler, a work item, an observer) runs where its caller calls
                        // it, which the project does not show.
                        found(.unknown)
                    }
                    closureContexts(of: place, in: closure.steps, found: found)
                }
            }
            for block in StepWalk.nestedBlocks(of: step) { closureContexts(of: place, in: block, found: found) }
        }
    }

    /// Whether `call` (an `addObserver`) observes one of UIKit's application or scene notifications
    /// (`UIApplication.didEnterBackgroundNotification`, `UIApplicationWillResignActiveNotification`).
    static func observesUIKitNotification(_ call: CodeCall) -> Bool {
        let names =
            (call.argument(labelled: "forName") ?? call.argument(labelled: "name")
            ?? call.argument(labelled: "addObserverForName"))?.names ?? []
        return names.contains { name in
            (name.hasPrefix("UIApplication") || name.hasPrefix("UIScene")) && name.hasSuffix("Notification")
        }
            || (names.contains("UIApplication") || names.contains("UIScene"))
                && names.contains { $0.hasSuffix("Notification") }
    }

    /// Whether an observer block runs on the posting thread (`queue: nil`) or the main queue.
    private static func deliversOnPostingOrMain(_ call: CodeCall) -> Bool {
        guard let queue = call.argument(labelled: "queue") else { return true }
        if case .literal(.nil) = queue { return true }
        return queue.names.contains("main") || queue.names.contains("mainQueue")
    }

    /// Where a closure passed to `call` runs, when the call says.
    static func context(ofClosurePassedTo call: CodeCall) -> RunsOn? {
        let receiverNames =
            call.receiver.map { expression -> [String] in
                StepWalk.calls(in: expression).map(\.name) + (expression.path ?? [])
            } ?? []
        let queueArgument =
            call.arguments.first.map { argument -> [String] in
                StepWalk.calls(in: argument.value).map(\.name) + (argument.value.path ?? [])
            } ?? []
        switch call.name {
        case "async", "asyncAfter", "sync", "asyncAndWait":
            if receiverNames.contains("main") { return .main("it runs on `DispatchQueue.main`") }
            // A `sync` block runs on the calling thread (GCD's documented optimization), not on a global queue's.
            guard call.name != "sync", call.name != "asyncAndWait" else { return nil }
            if receiverNames.contains("global") {
                return .offMain("it runs in a closure on a global queue (`\(call.name)`)", isShown: true)
            }
            guard !receiverNames.isEmpty else { return nil }
            let queue = receiverNames.last ?? "a queue"
            return .offMain("it runs on the queue `\(queue)`, which is not shown to be the main queue", isShown: false)
        case "dispatch_async", "dispatch_after", "dispatch_sync", "dispatch_barrier_async", "dispatch_group_notify":
            let queue =
                ["dispatch_after", "dispatch_group_notify"].contains(call.name)
                ? call.arguments.dropFirst().first?.value : call.arguments.first?.value
            let names = queue.map { StepWalk.calls(in: $0).map(\.name) + ($0.path ?? []) } ?? queueArgument
            if names.contains("dispatch_get_main_queue") { return .main("it runs on the main queue") }
            guard call.name != "dispatch_sync" else { return nil }  // on the calling thread
            if names.contains("dispatch_get_global_queue") {
                return .offMain("it runs in a block on a global queue (`\(call.name)`)", isShown: true)
            }
            return .offMain(
                "it runs on the queue `\(names.last ?? "a queue")`, which is not shown to be the main queue",
                isShown: false)
        case "detached": return .offMain("it runs in a detached task", isShown: true)
        case "Thread", "NSThread", "detachNewThread", "detachNewThreadWithBlock":
            return .offMain("it runs on a thread of its own (`\(call.name)`)", isShown: true)
        case "HKObserverQuery", "HKAnchoredObjectQuery":
            return .offMain("HealthKit runs a query's handler on a background queue", isShown: true)
        case "run" where receiverNames.contains("MainActor"): return .main("it runs in `MainActor.run`")
        case "addOperationWithBlock" where receiverNames.contains("mainQueue"):
            return .main("it runs on the main queue")
        case "addOperation" where receiverNames.contains("main"): return .main("it runs on `OperationQueue.main`")
        case "addObserver" where observesUIKitNotification(call) && deliversOnPostingOrMain(call),
            "addObserverForName" where observesUIKitNotification(call) && deliversOnPostingOrMain(call):
            return .main("it observes a UIKit application notification, which UIKit posts on the main thread")
        case "addObserver" where call.argument(labelled: "queue")?.path?.last == "main",
            "addObserverForName"
        where call.argument(labelled: "queue").map(StepWalk.calls(in:))?.contains(where: {
            $0.name == "mainQueue"
        }) == true:
            return .main("the observer runs on the main queue")
        case "addOperation", "addOperationWithBlock", "addBarrierBlock":
            guard !receiverNames.isEmpty else { return nil }
            return .offMain(
                "it runs on the operation queue `\(receiverNames.last ?? "a queue")`, which is not shown to be the "
                    + "main queue", isShown: false)
        default: return nil
        }
    }
}
