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
        guard let dispatch = calls.first(where: { ClosureTiming($0) == .deferred && !$0.closures.isEmpty }) else {
            return nil
        }
        let waits = calls.filter { ["wait", "dispatch_group_wait", "dispatch_semaphore_wait"].contains($0.name) }
        let untimed = waits.contains { wait in
            wait.arguments.isEmpty
                || wait.arguments.contains {
                    $0.value.path?.last == "DISPATCH_TIME_FOREVER" || $0.value.path?.last == "distantFuture"
                }
        }
        if untimed { return nil }
        let why =
            waits.isEmpty
            ? "hands its work to `\(dispatch.name)` and returns without waiting for it"
            : "waits for its work with a timeout, then returns whether or not it is done"
        let chain = [
            EvidenceLink("performs an expiring activity", at: call.location),
            EvidenceLink("the block \(why): the activity ends when the block returns", at: dispatch.location),
        ]
        return AnalysisFinding(ruleID: "BT009", location: call.location, chain: chain)
    }
}
