/// BT009: a `performExpiringActivity` block that dispatches its work asynchronously and returns.
///
/// The assertion lasts only while the block runs. A block that hands the work to
/// `DispatchQueue.async`, `Task {}`, an operation queue or a completion handler, and does not then
/// wait for it (`semaphore.wait()`, `group.wait()`, `dispatch_semaphore_wait`), lets the process be
/// suspended mid-work.
enum ExpiringActivityReturnsEarlyRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT009",
        severity: .error,
        summary: "performExpiringActivity block that returns before its work is done"
    )

    private static let waits: Set<String> = [
        "wait", "dispatch_semaphore_wait", "dispatch_group_wait", "waitUntilFinished",
        "waitUntilAllOperationsAreFinished", "waitUntilDate",
    ]

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        return analysis.expiringActivities.compactMap { site in
            guard let block = analysis.handlerScope(of: site) else { return nil }
            let region = syntax.scopes[block]
            // Scopes are in order of their `{`: the ones inside the block follow it.
            let inside = (block + 1)..<syntax.scopes.count
            let dispatched = inside.prefix { region.contains(syntax.scopes[$0].open) }.first { scope in
                guard syntax.scopes[scope].kind == .closure, case .asynchronous = analysis.timing(ofClosure: scope)
                else { return false }
                return true
            }
            guard let dispatched else { return nil }
            let after = (syntax.scopes[dispatched].close + 1)..<region.close
            let waitsAfterwards = after.contains { index in
                let token = syntax.tokens[index]
                return token.kind == .identifier && waits.contains(token.text)
                    && syntax.executableScope(containing: index) == block
            }
            guard !waitsAfterwards else { return nil }
            let via = analysis.timing(ofClosure: dispatched).callName.map { "`\($0)`" } ?? "a closure"
            let line = syntax.tokens[syntax.scopes[dispatched].open].line
            return RuleHit(
                token: site.nameToken,
                message: "The performExpiringActivity block hands its work to \(via) (line \(line)) and returns: the "
                    + "assertion ends when the block returns, so the process can be suspended mid-work. Keep the "
                    + "block running until the work is done (wait on a semaphore the work signals; handle "
                    + "expired == true), or use withBackgroundTask(_:) or SafeBackgroundTask with the "
                    + ".expiringActivity backend, which keeps the block parked until the task ends."
            )
        }
    }
}
