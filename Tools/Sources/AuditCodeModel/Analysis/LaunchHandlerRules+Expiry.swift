/// What the launch handler's expiration handler does, and whether the work completes the task before the launch
/// handler returns: for BT011's "an expiration handler that only logs while the work completes later".
extension LaunchHandlerRules {
    /// Whether some statement of `steps` (their branches, loops and `do` blocks, not the closures they pass), or of the
    /// project code they hand `task` to, completes it before the handler returns.
    func completesSynchronously(_ steps: [Step], task: String, typeName: String?, depth: Int) -> Bool {
        let names = StepWalk.aliases(of: task, in: steps, boundBy: Self.names)
        func visit(_ steps: [Step]) -> Bool {
            steps.contains { step in
                if Self.completesDirectly(step, task) { return true }
                if StepWalk.nestedBlocks(of: step).contains(where: visit) { return true }
                guard depth > 0 else { return false }
                return StepWalk.ownCalls(of: step).contains { call in
                    guard
                        let position = Self.position(of: names, in: call)
                    else { return false }
                    return index.resolve(call, in: typeName).declarations.contains { declaration in
                        declaration.parameters.indices.contains(position)
                            && completesSynchronously(
                                declaration.steps, task: declaration.parameters[position].name,
                                typeName: declaration.typeName, depth: depth - 1)
                    }
                }
            }
        }
        return visit(steps)
    }

    /// Where the expiration handler set on `task` (here or in the project code it is handed to) does nothing that
    /// completes the task or stops its work: it is empty, or it only logs.
    func idleExpirationHandler(_ steps: [Step], task: String, typeName: String?) -> CodeRange? {
        var handler: CodeBody?
        _ = search(steps, for: task, typeName: typeName, depth: depth) { step, _ in
            guard Self.setsExpirationHandler(step) else { return false }
            handler = Self.expirationBody(step)
            return true
        }
        guard let handler, Self.onlyLogs(handler.steps) else { return nil }
        return handler.location
    }

    /// The closure `step` sets as an expiration handler (`task.expirationHandler = { … }`, `[task
    /// setExpirationHandler:^{ … }]`).
    static func expirationBody(_ step: Step) -> CodeBody? {
        guard setsExpirationHandler(step) else { return nil }
        if case .assign(_, .closure(let body)) = step.kind { return body }
        return StepWalk.ownCalls(of: step).first { $0.name == "setExpirationHandler" }?.closures.first
    }

    /// Whether `steps` do nothing but log: no assignment, no branch, and every call a print or a logger's.
    private static func onlyLogs(_ steps: [Step]) -> Bool {
        steps.allSatisfy { step in
            guard case .evaluate(let expression) = step.kind else { return false }
            let calls = StepWalk.calls(in: expression)
            return !calls.isEmpty && calls.allSatisfy(isLogging)
        }
    }

    /// `print(…)`, `NSLog(…)`, `logger.info(…)`, `FileLog.shared.addMessage(…)`, `analytics.taskExpired()`,
    /// `logEvent(…)`: a call that records, and changes nothing the work reads.
    private static func isLogging(_ call: CodeCall) -> Bool {
        if ["print", "debugPrint", "NSLog", "os_log", "dump"].contains(call.name) { return true }
        let name = call.name.lowercased()
        if name.hasPrefix("log") || name.hasPrefix("track") { return true }
        let receiver = call.receiver.map { StepWalk.calls(in: $0).map(\.name) + ($0.path ?? []) } ?? []
        return receiver.contains { part in
            let part = part.lowercased()
            return part.contains("log") || part.contains("analytic") || part.contains("telemetry")
        }
    }
}
