/// BT009 over the code model: a `performExpiringActivity` block that returns before its work is done — the work is
/// handed to a queue or a task and nothing waits for it, or the wait has a timeout. The system considers the
/// activity over when the block returns and may suspend the process with the work unfinished.
///
/// Two findings are `suspected` (the code that would show them is not read): a block that calls project code which hands
/// the work to a queue (followed through the index, when given), and a block whose call with `expired` true does
/// nothing to stop the work its first call is doing (only returns or logs): the first call keeps running past
/// expiry, and the system kills a process whose expiring-activity block does not return (`0xbaadca11`).
public struct ExpiringActivityRule: Sendable {
    /// The project's declarations, for following the block's calls; `nil` reads the block alone.
    public let index: ProjectIndex?

    /// Creates the rule, following the block's calls into `index` when given.
    public init(index: ProjectIndex? = nil) {
        self.index = index
    }

    /// The findings for every expiring activity in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            body.calls.compactMap { call -> AnalysisFinding? in
                guard case .expiringActivity(_, .closure(let block)) = SystemCall(call) else { return nil }
                return finding(call, block)
            }
        }
    }

    private func finding(_ call: CodeCall, _ block: CodeBody) -> AnalysisFinding? {
        let calls = block.calls
        let waits = calls.filter { ["wait", "dispatch_group_wait", "dispatch_semaphore_wait"].contains($0.name) }
        let untimed = waits.contains { wait in
            wait.arguments.isEmpty
                || wait.arguments.contains {
                    $0.value.path?.last == "DISPATCH_TIME_FOREVER" || $0.value.path?.last == "distantFuture"
                }
        }
        if untimed { return nil }
        let place: CodeCall
        let why: String
        if let wait = waits.first {
            place = wait
            why = "waits for its work with a timeout, then returns whether or not it is done"
        } else if let dispatch = Self.workDispatch(
            in: block.steps, expired: block.parameters.first?.name, afterWork: false)
        {
            place = dispatch
            why = "hands its work to `\(dispatch.name)` and returns without waiting for it"
        } else if let (helper, dispatch) = helperDispatch(in: block) {
            let chain = [
                EvidenceLink("performs an expiring activity", at: call.location),
                EvidenceLink(
                    "the block calls `\(helper.name)`, which hands work to `\(dispatch.name)` (line "
                        + "\(dispatch.location.line)) and returns; that the block waits for that work is not shown",
                    at: helper.location, isEstablished: false),
            ]
            return AnalysisFinding(ruleID: "BT009", location: call.location, chain: chain)
        } else if let expired = block.parameters.first?.name, let work = Self.ignoresExpiry(block.steps, expired) {
            let chain = [
                EvidenceLink("performs an expiring activity", at: call.location),
                EvidenceLink(
                    "the block's call with `\(expired)` true does nothing to stop the work its first call is doing "
                        + "(`\(work.name)` at line \(work.location.line)): that work keeps the first call from returning "
                        + "past expiry", at: work.location, isEstablished: false),
            ]
            return AnalysisFinding(ruleID: "BT009", location: call.location, chain: chain)
        } else {
            return nil
        }
        let chain = [
            EvidenceLink("performs an expiring activity", at: call.location),
            EvidenceLink("the block \(why): the activity ends when the block returns", at: place.location),
        ]
        return AnalysisFinding(ruleID: "BT009", location: call.location, chain: chain)
    }

    /// A call of project code in the block whose declaration hands its work to a queue or a task and returns (two
    /// levels deep), outside the branch that runs on expiry.
    private func helperDispatch(in block: CodeBody) -> (CodeCall, CodeCall)? {
        guard let index else { return nil }
        let expired = block.parameters.first?.name
        // The one function or method a call's name and labels declare, or `nil` (none, or several: not shown which).
        func declaration(of call: CodeCall) -> CodeBody? {
            let declarations = index.bodies(named: call.name, labels: call.arguments.map { $0.label ?? "_" })
            guard declarations.count == 1, let only = declarations.first, only.kind != .closure else { return nil }
            return only
        }
        func dispatch(in steps: [Step], depth: Int) -> CodeCall? {
            if let found = Self.workDispatch(in: steps, expired: nil, afterWork: false) { return found }
            guard depth > 0 else { return nil }
            return StepWalk.calls(in: steps).first { call in
                call.name.first?.isLowercase == true
                    && declaration(of: call).flatMap { dispatch(in: $0.steps, depth: depth - 1) } != nil
            }
        }
        for call in Self.workCalls(block.steps, expired: expired) {
            if let found = declaration(of: call).flatMap({ dispatch(in: $0.steps, depth: 1) }) { return (call, found) }
        }
        return nil
    }

    /// The first work call of a block whose expiry call does nothing to stop it: no branch reads `expired` and nothing
    /// is handed it, or the arm that runs on expiry only leaves or logs. `nil` when the block does no work of its own,
    /// or acts on expiry (sets a flag, cancels, hands `expired` on).
    private static func ignoresExpiry(_ steps: [Step], _ expired: String) -> CodeCall? {
        func acts(_ steps: [Step]) -> Bool {
            steps.contains { step in
                if case .assign = step.kind { return true }
                return StepWalk.calls(in: [step]).contains(where: isWork)
            }
        }
        func stops(_ steps: [Step]) -> Bool {
            steps.contains { step in
                let handsOn = StepWalk.calls(in: [step]).contains { call in
                    call.arguments.contains { mentions($0.value, expired) }
                }
                if handsOn { return true }
                guard case .branch(let branch) = step.kind else {
                    return StepWalk.nestedBlocks(of: step).contains(where: stops)
                }
                guard let arm = expiryArm(of: branch, expired) else { return branch.arms.contains(where: stops) }
                return (branch.arms.indices.contains(arm) && acts(branch.arms[arm]))
                    || branch.arms.indices.contains { $0 != arm && stops(branch.arms[$0]) }
            }
        }
        guard !stops(steps) else { return nil }
        return workCalls(steps, expired: expired).first
    }

    /// The calls doing work in `steps` outside the arm that runs on expiry, not handed to a queue.
    private static func workCalls(_ steps: [Step], expired: String?) -> [CodeCall] {
        var found: [CodeCall] = []
        for step in steps {
            if case .branch(let branch) = step.kind {
                let arm = expired.flatMap { expiryArm(of: branch, $0) }
                for (position, other) in branch.arms.enumerated() where position != arm {
                    found += workCalls(other, expired: expired)
                }
                continue
            }
            found += StepWalk.ownCalls(of: step).filter { isWork($0) && ClosureTiming($0) != .deferred }
            for block in StepWalk.nestedBlocks(of: step) { found += workCalls(block, expired: expired) }
        }
        return found
    }

    /// Which arm of `branch` runs on expiry: the first of `if expired`, the second of `if !expired`, the else of
    /// `guard !expired`; `nil` when its conditions do not read `expired`.
    private static func expiryArm(of branch: Step.Branch, _ expired: String) -> Int? {
        for case .expression(let expression) in branch.conditions where mentions(expression, expired) {
            if branch.form == .guard { return 0 }
            return isNegation(expression) ? 1 : 0
        }
        return nil
    }

    /// The first call that hands the block's work to a queue or a task, or `nil`. Not one in the branch that runs when
    /// `expired` is true (cancelling the work later is fine), nor one after the block already did work synchronously
    /// (a result posted to the main queue).
    private static func workDispatch(in steps: [Step], expired: String?, afterWork: Bool) -> CodeCall? {
        var afterWork = afterWork
        for step in steps {
            if case .branch(let branch) = step.kind {
                let expiryPosition = expired.flatMap { expiryArm(of: branch, $0) }
                for (position, arm) in branch.arms.enumerated() {
                    // A `guard !expired` else arm only leaves.
                    if branch.form != .guard, position == expiryPosition { continue }
                    if let found = workDispatch(in: arm, expired: expired, afterWork: afterWork) { return found }
                }
                continue
            }
            // A statement is judged whole: `URLSession.shared.dataTask(with: request) { … }.resume()` hands its work
            // to the session, whatever else the chain calls.
            let calls = StepWalk.ownCalls(of: step)
            if !afterWork, let dispatch = calls.first(where: { ClosureTiming($0) == .deferred && !$0.closures.isEmpty })
            {
                return dispatch
            }
            if calls.contains(where: { Self.isWork($0) && ClosureTiming($0) != .deferred }) { afterWork = true }
            for block in StepWalk.nestedBlocks(of: step) where !isBranch(step) {
                if let found = workDispatch(in: block, expired: expired, afterWork: afterWork) { return found }
            }
        }
        return nil
    }

    /// Whether a call does work of its own: not a type's initializer (`DispatchSemaphore(value: 0)`), a log line or
    /// the bookkeeping of a wait (`group.enter()`).
    private static func isWork(_ call: CodeCall) -> Bool {
        guard let first = call.name.first, first.isLowercase else { return false }
        return ![
            "print", "NSLog", "os_log", "log", "debug", "info", "notice", "warning", "error", "enter", "signal",
        ].contains(call.name)
    }

    /// Whether `expression` is a negation (`!expired`).
    private static func isNegation(_ expression: CodeExpression) -> Bool {
        if case .other(let parts) = expression, case .literal(.other("!"))? = parts.first { return true }
        return false
    }

    private static func isBranch(_ step: Step) -> Bool {
        if case .branch = step.kind { return true }
        return false
    }

    private static func mentions(_ expression: CodeExpression, _ name: String) -> Bool {
        switch expression {
        case .reference(let path): return path.first == name
        case .other(let parts): return parts.contains { mentions($0, name) }
        case .await(let inner): return mentions(inner, name)
        case .call, .closure, .literal: return false
        }
    }
}
