/// BT011: a `BGTaskScheduler` launch handler with a path that never calls `setTaskCompleted`.
enum ScheduledTaskNeverCompletedRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT011",
        severity: .error,
        summary: "BGTask launch handler with a path that never calls setTaskCompleted"
    )

    static let completions: Set<String> = ["setTaskCompleted", "setTaskCompletedWithSuccess"]

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        let call = syntax.isSwift ? "setTaskCompleted(success:)" : "setTaskCompletedWithSuccess:"
        var hits: [RuleHit] = []
        for registration in ScheduledTaskHandlers.registrations(in: syntax) {
            guard ScheduledTaskHandlers.mentions(completions, in: registration, syntax: syntax) else {
                // Handed to code in another file: its completion may be there.
                guard !registration.handsTaskElsewhere else { continue }
                hits.append(
                    RuleHit(
                        token: registration.nameToken,
                        message:
                            "This launch handler never calls \(call): the system may kill the app when the task's time "
                            + "runs out (\(RuleText.terminated)). Complete it on every path"
                            + (syntax.isSwift
                                ? ", or register with SafeTaskScheduler (BackgroundTaskScheduling), which completes "
                                    + "each launch exactly once." : ", the expiration handler's included.")
                    ))
                continue
            }
            for body in registration.bodies {
                for exit in uncompletedExits(in: body, syntax: syntax) {
                    hits.append(
                        RuleHit(
                            token: exit,
                            message:
                                "This path of the launch handler returns without calling \(call): the task is never "
                                + "completed and the system may kill the app (\(RuleText.terminated)). Complete it "
                                + "(unsuccessfully) before returning"
                                + (syntax.isSwift
                                    ? ", or use SafeTaskScheduler, whose thrown errors complete the task." : ".")
                        ))
                }
            }
        }
        return hits
    }

    /// `return`s of the body itself (not of a closure in it) inside a `guard`'s `else` or an `if` block that neither
    /// completes the task nor hands it on.
    private static func uncompletedExits(in body: Scope, syntax: SourceSyntax) -> [Int] {
        guard let bodyIndex = syntax.scope(openedAt: body.open) else { return [] }
        var exits: [Int] = []
        for index in (body.open + 1)..<min(body.close, syntax.tokens.count)
        where syntax.tokens[index].isIdentifier("return") {
            guard syntax.executableScope(containing: index) == bodyIndex,
                let block = syntax.scope(containing: index), block != bodyIndex,
                syntax.scopes[block].kind == .control,
                ["else", "if", "guard"].contains(syntax.scopes[block].name ?? "")
            else { continue }
            let scope = syntax.scopes[block]
            let handled = (scope.open..<index).contains { token in
                syntax.tokens[token].kind == .identifier
                    && (completions.contains(syntax.tokens[token].text)
                        || syntax.tokens[token].text == "expirationHandler")
            }
            if !handled { exits.append(index) }
        }
        return exits
    }
}
