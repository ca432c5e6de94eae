/// BT007 over the code model: the same task ended twice. Proven when the expiration handler ends the identifier's
/// variable without resetting it and another path of the same file ends that variable too: after the handler ran,
/// the other end ends the task a second time (or, if the identifier was reused, somebody else's task). When the
/// handler's end path resets the variable (check, end, reset), a second end is still possible when another end runs
/// on another thread with no lock: proven when ``ThreadResolver`` shows that end off the main thread, suspected when
/// the thread is not shown.
public struct DoubleEndRule: Sendable {
    /// The project's declarations, to follow the handler into its type's methods and the other end to its thread;
    /// `nil`: one file's text only.
    public let index: ProjectIndex?

    /// Creates the rule.
    public init(index: ProjectIndex? = nil) {
        self.index = index
    }

    /// The findings for every begin in `file` whose identifier is kept in a variable.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            Self.assignedBegins(in: body.steps).compactMap { name, call, handler in
                // A local is ended only in its own body; a property anywhere in its type.
                let isLocal = StepWalk.declares(name, in: body.steps)
                let typeBodies = index.flatMap { index in body.typeName.map { index.bodies(inType: $0) } }
                let scope =
                    isLocal ? [body] : typeBodies ?? file.bodies.filter { $0.typeName == body.typeName }
                // Another method's local of the same name (`var backgroundTask = …` in a method of the type that
                // keeps `backgroundTask`) is another task: its bare-name ends are not this property's.
                let shadowing =
                    isLocal
                    ? []
                    : scope.filter { $0 !== body && $0.kind != .closure && StepWalk.declares(name, in: $0.steps) }
                        .map(\.location)
                // A handler that holds a copy made before the begin returned (a capture list's `[task]`, an
                // Objective-C local that is not `__block`) ends UIBackgroundTaskInvalid, not the task: its end is no
                // first end of the task (BT004 and BT006 say what is wrong with it).
                let copied =
                    handler.captures.contains { $0.name == name && $0.value == nil }
                    || (file.language == .objectiveC && isLocal && StepWalk.declaresCopiedLocal(name, in: body.steps))
                if copied { return nil }
                return finding(name: name, call: call, handler: handler, scope: scope, shadowing: shadowing)
                    ?? race(name: name, call: call, handler: handler, in: body, scope: scope, shadowing: shadowing)
            }
        }
    }

    private func finding(
        name: String, call: CodeCall, handler: CodeBody, scope: [CodeBody], shadowing: [CodeRange]
    ) -> AnalysisFinding? {
        let handlerCalls = handler.calls
        guard let handlerEnd = handlerCalls.first(where: { Self.ends($0, name) }) else { return nil }
        if Self.resets(handler.steps, name) { return nil }
        let others = scope.flatMap { $0.calls }.filter { other in
            Self.ends(other, name) && !handler.location.contains(line: other.location.line)
                && !Self.isShadowed(other, by: shadowing)
        }
        guard let other = others.first else { return nil }
        // A handler that cancels the work first (`operation.cancel()`, `subscription?.cancel()`) may keep the work's
        // end from running: whether it does depends on code the audit does not read.
        let cancelsWork = handlerCalls.contains { handlerCall in
            Self.cancelNames.contains(handlerCall.name)
                && handlerCall.location.line <= handlerEnd.location.line
        }
        let chain = [
            EvidenceLink.begin("a task", keptIn: name, at: call.location),
            EvidenceLink("the handler ends `\(name)` and does not reset it", at: handlerEnd.location),
            EvidenceLink(
                "this ends `\(name)` again when the work finishes after the handler ran: a second end of the same task"
                    + (cancelsWork ? " (unless the handler's cancel keeps this end from running)" : ""),
                at: other.location, isEstablished: !cancelsWork),
        ]
        return AnalysisFinding(ruleID: "BT007", location: other.location, chain: chain)
    }

    /// Calls that stop work (`operation.cancel()`, `timer.invalidate()`): a handler that makes one may keep the work's
    /// own end from running.
    static let cancelNames: Set<String> = ["cancel", "invalidate", "stop", "cancelAllOperations"]

    /// A check-end-reset on the main thread in the handler (directly or through a method of its type) and another end
    /// of the same variable on a thread that is not shown to be the main thread, with no lock on either side.
    private func race(
        name: String, call: CodeCall, handler: CodeBody, in body: CodeBody, scope: [CodeBody], shadowing: [CodeRange]
    ) -> AnalysisFinding? {
        guard let index else { return nil }
        // The handler's end: direct, or a method of the type that ends the variable.
        // (`UIBackgroundTaskIdentifier taskId = self.bgTask; self.bgTask = Invalid; end(taskId)` ends it under a copy.)
        let endingMethods = scope.filter { method in
            guard method.kind != .closure, method.name != nil else { return false }
            let aliases = StepWalk.aliases(of: name, in: method.steps)
            return method.calls.contains { call in aliases.contains { Self.ends(call, $0) } }
        }
        let endingNames = Set(endingMethods.compactMap(\.name))
        let handlerAliases = StepWalk.aliases(of: name, in: handler.steps)
        let handlerEnd = handler.calls.first { call in
            handlerAliases.contains { Self.ends(call, $0) } || Self.callsOwn(call, endingNames)
        }
        guard let handlerEnd, !Self.locks(handler.calls) else { return nil }
        // The methods the handler ends through: their own ends are counted where they are called.
        let handlerMethods = endingMethods.filter { method in
            handler.calls.contains { Self.callsOwn($0, [method.name ?? ""]) }
        }
        if handlerMethods.contains(where: { Self.locks($0.calls) }) { return nil }
        let resolver = ThreadResolver(index: index)
        for other in scope {
            let aliases = StepWalk.aliases(of: name, in: other.steps)
            for end in other.calls
            where aliases.contains(where: { Self.ends(end, $0) })
                || Self.callsOwn(end, Set(handlerMethods.compactMap(\.name)))
            {
                guard !handler.location.contains(line: end.location.line), !Self.isShadowed(end, by: shadowing),
                    !(SystemCall(end) != nil && handlerMethods.contains { $0 === other })
                else { continue }
                // (A lock only on this side does not help: the handler's end does not take it.)
                let thread: EvidenceLink
                switch resolver.runsOn(end, in: other) {
                case .main: continue
                case .offMain(let reason, let isShown):
                    thread = EvidenceLink(
                        "this ends `\(name)` too, off the main thread (\(reason)), with no lock: both can pass the check "
                            + "before either resets it, and the task is ended twice", at: end.location,
                        isEstablished: isShown)
                case .unknown:
                    thread = EvidenceLink(
                        "this ends `\(name)` too, on a thread the project does not show, with no lock: if it is not the "
                            + "main thread, both can pass the check and end the task twice", at: end.location,
                        isEstablished: false)
                }
                let chain = [
                    EvidenceLink.begin("a task", keptIn: name, at: call.location),
                    EvidenceLink("the handler ends `\(name)` on the main thread", at: handlerEnd.location),
                    thread,
                ]
                return AnalysisFinding(ruleID: "BT007", location: call.location, chain: chain)
            }
        }
        return nil
    }

    /// Whether `end` ends a bare name inside one of `shadowing` (a method that declares a local of that name).
    private static func isShadowed(_ end: CodeCall, by shadowing: [CodeRange]) -> Bool {
        guard case .end(let argument) = SystemCall(end), argument?.path?.count == 1 else { return false }
        return shadowing.contains { $0.path == end.location.path && $0.contains(line: end.location.line) }
    }

    /// Whether `call` is a call on `self` (or no receiver) of one of `names`.
    private static func callsOwn(_ call: CodeCall, _ names: Set<String>) -> Bool {
        guard names.contains(call.name) else { return false }
        guard let path = call.receiver?.path else { return call.receiver == nil }
        return path.count == 1
    }

    /// Whether `calls` take a lock (`lock()`, `withLock`, `@synchronized`, a queue's `sync`).
    private static func locks(_ calls: [CodeCall]) -> Bool {
        calls.contains { lockNames.contains($0.name) }
    }

    static let lockNames: Set<String> = [
        "lock", "withLock", "withLockedValue", "synchronized", "os_unfair_lock_lock", "pthread_mutex_lock", "sync",
        "dispatch_sync", "withCriticalRegion", "dispatch_semaphore_wait",
    ]

    private static func isNil(_ value: CodeExpression) -> Bool {
        if case .literal(.nil) = value { return true }
        return false
    }

    /// The begins stored in a variable or property whose handler is a closure, with the name and the handler.
    private static func assignedBegins(in steps: [Step]) -> [(String, CodeCall, CodeBody)] {
        StepWalk.storedBegins(in: steps).compactMap { name, call in
            guard case .begin(_, .closure(let handler)) = SystemCall(call) else { return nil }
            return (name, call, handler)
        }
    }

    /// Whether `call` ends the task in the variable `name`.
    private static func ends(_ call: CodeCall, _ name: String) -> Bool {
        if case .end(let argument) = SystemCall(call) { return argument?.path?.last == name }
        return false
    }

    /// Whether `steps` assign `name` an invalid identifier (`.invalid`, `UIBackgroundTaskInvalid`), anywhere.
    private static func resets(_ steps: [Step], _ name: String) -> Bool {
        func check(_ steps: [Step]) -> Bool {
            steps.contains { step in
                switch step.kind {
                case .assign(let target, let value):
                    return target.path?.last == name
                        && (EndAnalysis.isInvalidIdentifier(value.path?.last) || Self.isNil(value))
                case .branch(let branch): return branch.arms.contains(where: check)
                case .loop(_, let body), .deferred(let body), .guarded(let body, _): return check(body)
                case .evaluate(let expression):
                    return StepWalk.calls(in: expression).flatMap(\.closures).contains { check($0.steps) }
                default: return false
                }
            }
        }
        return check(steps)
    }
}
