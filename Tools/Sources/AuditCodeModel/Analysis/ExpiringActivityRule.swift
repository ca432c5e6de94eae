/// BT009 over the code model: a `performExpiringActivity` block that returns before its work is done — the work is
/// handed to a queue or a task and nothing waits for it, or the wait has a timeout. The system considers the
/// activity over when the block returns and may suspend the process with the work unfinished.
public struct ExpiringActivityRule: Sendable {
    /// Creates the rule.
    public init() {}

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
        } else {
            return nil
        }
        let chain = [
            EvidenceLink("performs an expiring activity", at: call.location),
            EvidenceLink("the block \(why): the activity ends when the block returns", at: place.location),
        ]
        return AnalysisFinding(ruleID: "BT009", location: call.location, chain: chain)
    }

    /// The first call that hands the block's work to a queue or a task, or `nil`. Not one in the branch that runs when
    /// `expired` is true (cancelling the work later is fine), nor one after the block already did work synchronously
    /// (a result posted to the main queue).
    private static func workDispatch(in steps: [Step], expired: String?, afterWork: Bool) -> CodeCall? {
        var afterWork = afterWork
        for step in steps {
            if case .branch(let branch) = step.kind {
                // Which arm runs on expiry: the first of `if expired`, the second of `if !expired`.
                let expiryArm = expired.flatMap { name -> Int? in
                    for case .expression(let expression) in branch.conditions where mentions(expression, name) {
                        return isNegation(expression) ? 1 : 0
                    }
                    return nil
                }
                for (position, arm) in branch.arms.enumerated() {
                    // A `guard !expired` else arm only leaves.
                    if branch.form != .guard, position == expiryArm { continue }
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
