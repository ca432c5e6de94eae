/// Whether a body ends a background task before it returns, following calls into project code through the index:
/// what an expiration handler must do.
public struct EndAnalysis: Sendable {
    /// How a body ends the task.
    public enum Outcome: Sendable, Equatable {
        /// An end runs before the body returns, on every path that does not leave early.
        case endsBeforeReturning([EvidenceLink])
        /// The only ends run after the body returns (dispatched, in a `Task`, in a completion).
        case endsLate([EvidenceLink])
        /// An end runs on some paths only; another path returns without one.
        case endsOnSomePaths([EvidenceLink])
        /// The end is reached only while a weak reference is still alive (`guard let self`, `weakSelf`).
        case endsBehindWeakReference([EvidenceLink])
        /// No end anywhere in the body or the project code it calls.
        case neverEnds([EvidenceLink])
        /// No end found, but the body calls code the index cannot read that might end it.
        case unresolved([EvidenceLink])
    }

    /// The project's declarations.
    public let index: ProjectIndex
    /// How deep calls are followed.
    public var depth = 4
    /// The steps of the body the analysed one is written in (a begin's function, for its handler): a local closure
    /// it calls (`finishUpload()`) is followed there.
    public var locals: [Step] = []

    /// Creates the analysis over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// How `body` (an expiration handler, a helper), declared in `typeName`, ends the task.
    public func outcome(of body: CodeBody, in typeName: String?) -> Outcome {
        let weak = Set(body.captures.filter { $0.strength != .strong }.map(\.name))
        var scan = Scan()
        scan.endedNames = Self.endedNames(in: body)
        walk(body.steps, typeName: typeName, weakNames: weak, depth: depth, into: &scan)
        let site = body.location
        if let end = scan.end {
            if let guardLink = scan.weakGuard { return .endsBehindWeakReference([guardLink, end]) }
            if let exit = scan.earlyExit { return .endsOnSomePaths([exit, end]) }
            return .endsBeforeReturning([end])
        }
        if let partial = scan.partialEnd {
            return .endsOnSomePaths([partial] + (scan.earlyExit.map { [$0] } ?? []))
        }
        if let late = scan.lateEnd { return .endsLate([late]) }
        if !scan.unresolved.isEmpty { return .unresolved(scan.unresolved) }
        return .neverEnds([EvidenceLink("no end in it, nor in the project code it calls", at: site)])
    }

    /// The names `body` ends (`endBackgroundTask(taskId)` → `taskId`), in its own statements and in the closures it
    /// passes on (`queue.sync { if let task = tasks[id] { endBackgroundTask(task) } }`).
    private static func endedNames(in body: CodeBody) -> Set<String> {
        var names: Set<String> = []
        func collect(_ calls: [CodeCall]) {
            for call in calls {
                if case .end(let argument) = SystemCall(call), let name = argument?.path?.last { names.insert(name) }
                for closure in call.closures { collect(closure.calls) }
            }
        }
        collect(body.calls)
        return names
    }

    /// What a walk found.
    private struct Scan {
        var end: EvidenceLink?
        var partialEnd: EvidenceLink?
        var lateEnd: EvidenceLink?
        var weakGuard: EvidenceLink?
        var earlyExit: EvidenceLink?
        var unresolved: [EvidenceLink] = []
        /// Control has left on this path: later steps do not run.
        var hasLeft = false
        /// The names the body ends (`endBackgroundTask(taskId)` → `taskId`): a guard that binds one of them leaves,
        /// in its else, only when there is no task to end.
        var endedNames: Set<String> = []

        /// A scan of a nested path, knowing the same names.
        func fresh() -> Scan {
            var scan = Scan()
            scan.endedNames = endedNames
            return scan
        }
    }

    private func walk(_ steps: [Step], typeName: String?, weakNames: Set<String>, depth: Int, into scan: inout Scan) {
        // A local taken from a weak capture (`strongSelf = weakSelf`, `me = weakSelf`) is `nil` when it is.
        var weakNames = weakNames
        for step in steps where scan.end == nil && !scan.hasLeft {
            if case .declare(let name, _, let value?) = step.kind, let root = value.path?.first,
                weakNames.contains(root)
            {
                weakNames.insert(name)
            }
            switch step.kind {
            case .exit:
                if scan.earlyExit == nil {
                    scan.earlyExit = EvidenceLink("returns here without ending the task", at: step.location)
                }
                scan.hasLeft = true
            case .branch(let branch):
                walkBranch(branch, step: step, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
            case .deferred(let body), .guarded(let body, _):
                walk(body, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
            case .loop(_, let body):
                var inner = scan
                walk(body, typeName: typeName, weakNames: weakNames, depth: depth, into: &inner)
                scan.lateEnd = scan.lateEnd ?? inner.lateEnd
                scan.partialEnd = scan.partialEnd ?? inner.end ?? inner.partialEnd  // a loop may run no time
                scan.unresolved += inner.unresolved
            case .nested:
                break
            case .evaluate(let expression), .declare(_, _, .some(let expression)):
                visit(expression, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
            case .assign(_, let value):
                visit(value, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
            case .declare(_, _, nil):
                break
            }
        }
    }

    private func walkBranch(
        _ branch: Step.Branch, step: Step, typeName: String?, weakNames: Set<String>, depth: Int, into scan: inout Scan
    ) {
        if branch.form == .guard {
            let bindsWeak = branch.conditions.contains { condition in
                if case .binding(let name, let value) = condition {
                    return weakNames.contains(name) || value?.path.map { weakNames.contains($0[0]) } == true
                }
                return false
            }
            var otherwise = scan.fresh()
            walk(branch.arms.first ?? [], typeName: typeName, weakNames: weakNames, depth: depth, into: &otherwise)
            scan.unresolved += otherwise.unresolved
            if otherwise.end != nil { return }  // the else ends the task too: every path does
            // `guard task != .invalid else { return }`, `guard let taskId = self.taskId else { return }` (then
            // `endBackgroundTask(taskId)`): the else runs when there is no task to end.
            if Self.checksValidity(branch) { return }
            if Self.binds(scan.endedNames, in: branch) { return }
            if bindsWeak, scan.weakGuard == nil {
                scan.weakGuard = EvidenceLink(
                    "the handler returns here when the weakly captured object is gone", at: step.location)
            } else if !bindsWeak, scan.earlyExit == nil {
                scan.earlyExit = EvidenceLink("this guard's else leaves without ending the task", at: step.location)
            }
            return  // the else arm leaves; the rest of the body runs after it
        }
        var arms = branch.arms.map { arm -> Scan in
            var inner = scan.fresh()
            walk(arm, typeName: typeName, weakNames: weakNames, depth: depth, into: &inner)
            return inner
        }
        // `if (!strongSelf) return;`: an arm that leaves without ending when the weakly captured object is gone.
        if scan.weakGuard == nil, branch.conditions.contains(where: { Self.mentions($0, weakNames) }),
            arms.contains(where: { $0.hasLeft && $0.end == nil && $0.partialEnd == nil && $0.lateEnd == nil })
        {
            scan.weakGuard = EvidenceLink(
                "the handler returns here when the weakly captured object is gone", at: step.location)
        }
        // `if task != .invalid { end }`: the path with no end is the one with no task to end.
        // `if !ended { ended = true; endBackgroundTask(id) }`: a flag tested and set where the task is ended; the path
        // that skips the end is the one where it was ended already.
        let aboutTheTask =
            Self.checksValidity(branch) || Self.binds(scan.endedNames, in: branch)
            || Self.testsAndSets(branch, endingArms: zip(branch.arms, arms).filter { $0.1.end != nil }.map(\.0))
        if !branch.isExhaustive, !aboutTheTask { arms.append(scan.fresh()) }
        // An arm of a check on the identifier that ends nothing (`if (task == UIBackgroundTaskInvalid) return;`) is
        // the path with no task to end: it neither ends nor leaves early.
        if aboutTheTask { arms.removeAll { $0.end == nil && $0.partialEnd == nil && $0.lateEnd == nil } }
        guard !arms.isEmpty else { return }
        let ending = arms.filter { $0.end != nil }
        if !ending.isEmpty, ending.count == arms.count {
            scan.end = ending[0].end
        } else if let some = ending.first?.end {
            scan.partialEnd = scan.partialEnd ?? some
            if scan.earlyExit == nil {
                scan.earlyExit = EvidenceLink(
                    "another branch of this statement does not end the task", at: step.location)
            }
        }
        if arms.allSatisfy({ $0.hasLeft || $0.end != nil }) { scan.hasLeft = scan.end == nil }
        for arm in arms {
            scan.lateEnd = scan.lateEnd ?? arm.lateEnd
            scan.weakGuard = scan.weakGuard ?? arm.weakGuard
            scan.unresolved += arm.unresolved
        }
    }

    /// Whether `branch` tests a flag that an arm which ends the task sets (`if (completed == NO) { completed = YES; …
    /// [application endBackgroundTask:task]; }`).
    static func testsAndSets(_ branch: Step.Branch, endingArms: [[Step]]) -> Bool {
        let set = Set(
            endingArms.flatMap { arm in
                arm.compactMap { step -> String? in
                    if case .assign(let target, _) = step.kind { return target.path?.last }
                    return nil
                }
            })
        guard !set.isEmpty else { return false }
        return branch.conditions.contains { reads($0) { $0.last.map(set.contains) ?? false } }
    }

    /// Whether a condition reads one of `names` (`!strongSelf`, `weakSelf == nil`, `me.isRunning`).
    private static func mentions(_ condition: Step.Condition, _ names: Set<String>) -> Bool {
        reads(condition, throughReceivers: true) { $0.first.map(names.contains) ?? false }
    }

    /// Whether `condition` is an expression that reads a reference `matches` accepts (also as a call's receiver, with
    /// `throughReceivers`).
    private static func reads(
        _ condition: Step.Condition, throughReceivers: Bool = false, _ matches: ([String]) -> Bool
    ) -> Bool {
        func reads(_ expression: CodeExpression) -> Bool {
            switch expression {
            case .reference(let path): return matches(path)
            case .other(let parts): return parts.contains(where: reads)
            case .await(let inner): return reads(inner)
            case .call(let call): return throughReceivers && (call.receiver.map(reads) ?? false)
            case .closure, .literal: return false
            }
        }
        if case .expression(let expression) = condition { return reads(expression) }
        return false
    }

    /// Whether a branch's conditions bind one of `names` (`if let task`, `guard let id = self.taskID`): the names
    /// the body ends, so the path where the binding fails is the one with no task to end.
    /// Objective-C's `if (self.task)` tests the identifier itself (`UIBackgroundTaskInvalid` is 0) and counts the same.
    static func binds(_ names: Set<String>, in branch: Step.Branch) -> Bool {
        branch.conditions.contains { condition in
            switch condition {
            case .binding(let name, _): names.contains(name)
            case .expression(.reference(let path)): path.last.map(names.contains) ?? false
            case .expression: false
            }
        }
    }

    /// Whether `name` is an invalid identifier's: `.invalid`, `UIBackgroundTaskInvalid`, or a project's own constant
    /// named so (`XYZBackgroundIdentifierInvalid`).
    static func isInvalidIdentifier(_ name: String?) -> Bool {
        guard let name else { return false }
        return name == "invalid" || name.hasSuffix("Invalid")
    }

    /// Whether a branch's conditions compare an identifier with the invalid one (`task != .invalid`,
    /// `task == UIBackgroundTaskInvalid`): then an arm or a missing arm that ends nothing is the path where there is
    /// no task to end.
    static func checksValidity(_ branch: Step.Branch) -> Bool {
        branch.conditions.contains { reads($0) { isInvalidIdentifier($0.last) } }
    }

    private func visit(
        _ expression: CodeExpression, typeName: String?, weakNames: Set<String>, depth: Int, into scan: inout Scan
    ) {
        switch expression {
        case .call(let call):
            if let receiver = call.receiver {
                visit(receiver, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
            }
            visitCall(call, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
        case .await(let inner):
            visit(inner, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
        case .other(let parts):
            for part in parts { visit(part, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan) }
        case .closure, .reference, .literal:
            break  // a closure not passed to a call does not run here
        }
    }

    private func visitCall(
        _ call: CodeCall, typeName: String?, weakNames: Set<String>, depth: Int, into scan: inout Scan
    ) {
        if case .end = SystemCall(call) {
            let viaWeak = call.arguments.first?.value.path.map { weakNames.contains($0[0]) } ?? false
            let link = EvidenceLink("ends the task", at: call.location)
            if viaWeak, scan.weakGuard == nil {
                scan.weakGuard = EvidenceLink("the end reads the task through a weak reference", at: call.location)
            }
            scan.end = link
            return
        }
        for argument in call.arguments {
            guard case .closure(let closure) = argument.value else {
                visit(argument.value, typeName: typeName, weakNames: weakNames, depth: depth, into: &scan)
                continue
            }
            var inner = scan.fresh()
            walk(closure.steps, typeName: typeName, weakNames: weakNames, depth: depth, into: &inner)
            guard let end = inner.end ?? inner.partialEnd ?? inner.lateEnd else {
                scan.unresolved += inner.unresolved
                continue
            }
            switch timing(of: call, passing: argument, depth: depth) {
            case .synchronous:
                if inner.end != nil { scan.end = end } else { scan.partialEnd = scan.partialEnd ?? end }
            case .deferred:
                scan.lateEnd =
                    scan.lateEnd
                    ?? EvidenceLink(
                        "ends it only inside `\(call.name)`, which runs the closure after the handler returns",
                        at: end.location)
            case .unknown:
                scan.unresolved.append(
                    EvidenceLink(
                        "ends it inside a closure passed to `\(call.name)`, which may run it later", at: end.location,
                        isEstablished: false))
            }
            if scan.end != nil { return }
        }
        guard scan.end == nil, !call.name.isEmpty, depth > 0 else { return }
        followProjectCall(call, typeName: typeName, depth: depth, into: &scan)
        if scan.end != nil, let root = call.receiver?.path?.first, weakNames.contains(root), scan.weakGuard == nil {
            scan.weakGuard = EvidenceLink(
                "calls `\(call.name)` through `\(root)`, a weak reference: nothing runs once the object is gone",
                at: call.location)
        }
    }

    /// When `call` runs the closure passed as `argument`: from the call's name, else from the project's own
    /// declaration of the callee (a helper that calls its closure parameter inline, or hands it to `async`).
    private func timing(of call: CodeCall, passing argument: CodeCall.Argument, depth: Int) -> ClosureTiming {
        let named = ClosureTiming(call)
        guard named == .unknown, depth > 0 else { return named }
        let labels = call.arguments.map { $0.label ?? "_" }
        let declarations = index.bodies(named: call.name, labels: labels) + index.bodies(named: call.name)
        for declaration in declarations {
            let position = call.arguments.firstIndex { $0.label == argument.label } ?? call.arguments.count - 1
            guard declaration.parameters.indices.contains(position) else { continue }
            let parameter = declaration.parameters[position].name
            if let found = Self.invocationTiming(of: parameter, in: declaration.steps) { return found }
        }
        return .unknown
    }

    /// Whether `steps` call the closure parameter `name` inline, or only inside a closure run later.
    private static func invocationTiming(of name: String, in steps: [Step]) -> ClosureTiming? {
        let direct = steps.contains { step in
            guard case .evaluate(let expression) = step.kind else { return false }
            if case .call(let call) = expression { return call.name == name && call.receiver == nil }
            return false
        }
        if direct { return .synchronous }
        for call in StepWalk.calls(in: steps) {
            for case .closure(let closure) in call.arguments.map(\.value)
            where closure.calls.contains(where: { $0.name == name && $0.receiver == nil }) {
                return ClosureTiming(call) == .unknown ? nil : ClosureTiming(call)
            }
        }
        return nil
    }

    /// How many declarations of a name a call not on `self` is followed into.
    public static let mostDeclarationsFollowed = 4

    /// A call of project code: follows it into the declaration the index resolves it to.
    private func followProjectCall(_ call: CodeCall, typeName: String?, depth: Int, into scan: inout Scan) {
        let labels = call.arguments.map { $0.label ?? "_" }
        let onSelf = call.receiver == nil || call.receiver?.path == ["self"] || call.receiver?.path == ["super"]
        var candidates =
            onSelf ? typeName.map { index.methods(named: call.name, labels: labels, in: $0) } ?? [] : []
        if candidates.isEmpty {
            candidates = index.bodies(named: call.name, labels: labels).filter { $0.kind != .closure }
            // No declaration of that name ends a task, nor calls one that does: the call cannot end it.
            if !candidates.isEmpty, !index.mayReachAnEnd(call.name) { return }
            // A name many declarations share (`start`, `update`) shows nothing about which one runs; following each
            // of them, and theirs, would cost a power of their number.
            if candidates.count > Self.mostDeclarationsFollowed {
                scan.unresolved.append(
                    EvidenceLink(
                        "calls `\(call.name)`, which \(candidates.count) project declarations of that name could be",
                        at: call.location, isEstablished: false))
                return
            }
        }
        guard !candidates.isEmpty else {
            // A local closure of the code around (`dispatch_block_t finishUpload = ^{ … }; … finishUpload();`), or one
            // it stored in a property (`self.cleanup = ^{ … }; … self.cleanup();`), runs here.
            let local: CodeBody? =
                if call.receiver == nil, case .closure(let closure)? = StepWalk.localValue(of: call.name, in: locals) {
                    closure
                } else if call.receiver == nil, let function = StepWalk.localFunction(named: call.name, in: locals) {
                    function
                } else if let path = call.receiver?.path {
                    StepWalk.assignedClosure(to: path + [call.name], in: locals)
                } else {
                    nil
                }
            if let closure = local {
                var inner = scan.fresh()
                walk(closure.steps, typeName: typeName, weakNames: [], depth: depth - 1, into: &inner)
                if let end = inner.end {
                    scan.end = EvidenceLink(
                        "calls the local \(closure.kind == .closure ? "closure" : "function") `\(call.name)`, which "
                            + "ends the task at line \(end.location.line)",
                        at: call.location)
                } else if let some = inner.partialEnd ?? inner.lateEnd {
                    scan.unresolved.append(
                        EvidenceLink(
                            "calls the local \(closure.kind == .closure ? "closure" : "function") `\(call.name)`, "
                                + "which ends the task only on some paths or later "
                                + "(line \(some.location.line))", at: call.location, isEstablished: false))
                }
                scan.unresolved += inner.unresolved
                return
            }
            // A block or closure kept in a property of the caller's own type (`self.connectionCleanup()`), whatever
            // its type is spelled as: the index does not show what was stored there.
            let ownProperty =
                call.receiver?.path == ["self"]
                && typeName.map { !index.properties(named: call.name, in: $0).isEmpty }
                    == true
            if index.properties(named: call.name).contains(where: \.isClosure) || ownProperty {
                scan.unresolved.append(
                    EvidenceLink(
                        "calls the closure held in `\(call.name)`, which the index cannot see", at: call.location,
                        isEstablished: false))
            }
            return  // code outside the project: it cannot call the system's end itself
        }
        var ending: [(CodeBody, EvidenceLink)] = []
        for candidate in candidates {
            // `if let task = tasks.removeValue(forKey: id) { endBackgroundTask(task) }`: the path where the binding
            // fails is the one with no task to end, in the helper as in the handler.
            var inner = Scan()
            inner.endedNames = Self.endedNames(in: candidate)
            walk(candidate.steps, typeName: candidate.typeName, weakNames: [], depth: depth - 1, into: &inner)
            if let end = inner.end {
                ending.append((candidate, end))
            } else if let some = inner.partialEnd {
                // The helper ends on some of its paths: which one runs depends on state the analysis does not know, so
                // "no end" is not shown.
                scan.unresolved.append(
                    EvidenceLink(
                        "calls `\(call.name)` (\(candidate.location.path):\(candidate.location.line)), which ends the "
                            + "task on some paths (line \(some.location.line))", at: call.location, isEstablished: false
                    ))
            } else if let late = inner.lateEnd {
                scan.lateEnd =
                    scan.lateEnd
                    ?? EvidenceLink(
                        "calls `\(call.name)` (\(candidate.location.path):\(candidate.location.line)), which \(late.text)",
                        at: call.location)
            }
            scan.unresolved += inner.unresolved
        }
        guard let (declaration, end) = ending.first else { return }
        // `[self.sender stopFlushing]`: another object's method, matched by name alone to the caller's own type's, is
        // not shown to be the one that runs.
        let shown = ending.count == candidates.count && !reachesOwnTypeByNameOnly(call, candidates, typeName: typeName)
        let link = EvidenceLink(
            "calls `\(call.name)` (\(declaration.location.path):\(declaration.location.line)), which ends the task at "
                + "\(end.location.path):\(end.location.line)",
            at: call.location, isEstablished: shown)
        if shown { scan.end = link } else { scan.unresolved.append(link) }
    }

    /// Whether `call` is made on another object (a property, a parameter: not `self` or a name for it such as
    /// `weakSelf`) whose type the index does not show, and every declaration its name matches is the caller's own
    /// type's: the same name on a different object.
    private func reachesOwnTypeByNameOnly(_ call: CodeCall, _ candidates: [CodeBody], typeName: String?) -> Bool {
        guard let typeName, let path = call.receiver?.path, !path.isEmpty,
            !(path.count == 1 && path[0].lowercased().contains("self")),
            candidates.allSatisfy({ $0.typeName == typeName })
        else { return false }
        return !index.resolve(call, in: typeName).isShown
    }
}
