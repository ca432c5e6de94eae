/// BT007 for `BGTaskScheduler` tasks: the expiration handler calls `setTaskCompleted` and the work calls it again
/// when it finishes, with no flag between them. Followed through the project methods the task is handed to, like
/// ``LaunchHandlerRules``. Proven when the expiration handler completes the task without cancelling anything first;
/// suspected when it cancels the work (`operation.cancel()`), which may or may not keep the work's completion from
/// running.
public struct DoubleCompletionRule: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex
    /// How deep calls are followed.
    public var depth = 3

    /// Creates the rule over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for every registration in `file`.
    public func findings(in file: CodeFile) -> [AnalysisFinding] {
        file.bodies.flatMap { body in
            body.calls.compactMap { call -> AnalysisFinding? in
                guard case .register(_, .closure(let closure)) = SystemCall(call),
                    let task = closure.parameters.first?.name
                else { return nil }
                var reached = Reached()
                collect(closure.steps, task: task, typeName: body.typeName, depth: depth, into: &reached)
                return finding(register: call, reached: reached)
            }
        }
    }

    /// What the launch handler and the code it hands the task to do with it.
    private struct Reached {
        /// The expiration handlers set on the task.
        var expirationHandlers: [CodeBody] = []
        /// The completions outside them.
        var completions: [CodeCall] = []
        /// Where the calls inside a closure (a `Task`, a callback) are: they may run after the handler is set even
        /// when written before it.
        var inClosures: Set<CodeRange> = []
        /// Every name read in a condition outside them.
        var conditionNames: Set<String> = []
        /// The bodies already followed.
        var followed: Set<String> = []
        /// Functions declared inside the bodies read that complete the task (`func finish() { task.setTaskCompleted
        /// (success: true) }`): a call of one is a completion.
        var completingFunctions: Set<String> = []
        /// Every other call outside the expiration handlers, to find the calls of those functions.
        var calls: [CodeCall] = []

        /// The completions outside the expiration handlers, calls of completing functions included.
        var workCompletions: [CodeCall] {
            completions + calls.filter { completingFunctions.contains($0.name) }
        }

        /// The first completion in an expiration handler, a call of a completing function included.
        func completion(in handler: CodeBody) -> CodeCall? {
            handler.calls.first { DoubleCompletionRule.isCompletion($0) || completingFunctions.contains($0.name) }
        }
    }

    private func finding(register: CodeCall, reached: Reached) -> AnalysisFinding? {
        guard
            let (handler, handlerCompletion) = reached.expirationHandlers.lazy.compactMap({ handler in
                reached.completion(in: handler).map { (handler, $0) }
            }).first,
            // A completion written before the handler is set (an early `guard … else { complete; return }`) runs
            // before it can: only those after it in the same file, or inside a closure, count.
            let workCompletion = reached.workCompletions.first(where: { completion in
                reached.inClosures.contains(completion.location)
                    || completion.location.path == handler.location.path
                        && completion.location.line > handler.location.endLine
            })
        else { return nil }
        // A flag the handler sets and the work checks (`expired = true` … `if !expired`) keeps the second completion
        // from running.
        if handler.assignedNames.contains(where: reached.conditionNames.contains) { return nil }
        // A cancel anywhere in the handler (it runs to its end before the work's next step is known).
        let cancelsWork = handler.calls.contains { DoubleEndRule.cancelNames.contains($0.name) }
        let chain = [
            EvidenceLink("registers a launch handler", at: register.location),
            EvidenceLink("the expiration handler calls `setTaskCompleted`", at: handlerCompletion.location),
            EvidenceLink(
                "the work calls `setTaskCompleted` again when it finishes after the handler ran, with no flag between "
                    + "them" + (cancelsWork ? " (unless the handler's cancel keeps the work from finishing)" : ""),
                at: workCompletion.location, isEstablished: !cancelsWork),
        ]
        return AnalysisFinding(ruleID: "BT007", location: register.location, chain: chain)
    }

    /// Reads `steps` for the expiration handlers set on `task`, the completions outside them and the conditions,
    /// following the project methods `task` is handed to.
    private func collect(
        _ steps: [Step], task: String, typeName: String?, depth: Int, inClosure: Bool = false,
        into reached: inout Reached
    ) {
        for step in steps {
            if case .assign(let target, .closure(let handler)) = step.kind, target.path?.last == "expirationHandler" {
                reached.expirationHandlers.append(handler)
                continue
            }
            if let handler = StepWalk.ownCalls(of: step).first(where: { $0.name == "setExpirationHandler" })?
                .closures.first
            {
                reached.expirationHandlers.append(handler)
                continue
            }
            if case .branch(let branch) = step.kind {
                for case .expression(let condition) in branch.conditions {
                    reached.conditionNames.formUnion(condition.names)
                }
            }
            if case .loop(let conditions, _) = step.kind {
                for condition in conditions { reached.conditionNames.formUnion(condition.names) }
            }
            if case .nested(let function) = step.kind, let name = function.name,
                function.calls.contains(where: Self.isCompletion)
            {
                reached.completingFunctions.insert(name)
                continue
            }
            for call in StepWalk.ownCalls(of: step) {
                if Self.isCompletion(call) { reached.completions.append(call) } else { reached.calls.append(call) }
                if inClosure { reached.inClosures.insert(call.location) }
                guard depth > 0,
                    let position = call.arguments.firstIndex(where: { $0.value.path?.first == task })
                else { continue }
                for declaration in index.resolve(call, in: typeName).declarations
                where declaration.parameters.indices.contains(position) {
                    let key = "\(declaration.location.path):\(declaration.location.line)"
                    guard reached.followed.insert(key).inserted else { continue }
                    collect(
                        declaration.steps, task: declaration.parameters[position].name,
                        typeName: declaration.typeName, depth: depth - 1, inClosure: inClosure, into: &reached)
                }
            }
            for block in StepWalk.nestedBlocks(of: step) {
                collect(block, task: task, typeName: typeName, depth: depth, inClosure: inClosure, into: &reached)
            }
            for closure in StepWalk.ownCalls(of: step).flatMap(\.closures) {
                collect(closure.steps, task: task, typeName: typeName, depth: depth, inClosure: true, into: &reached)
            }
        }
    }

    static func isCompletion(_ call: CodeCall) -> Bool {
        if case .setTaskCompleted = SystemCall(call) { return true }
        return false
    }
}

extension CodeBody {
    /// The last part of every variable or property the body (its closures included) assigns.
    var assignedNames: Set<String> {
        var names: Set<String> = []
        func visit(_ steps: [Step]) {
            for step in steps {
                if case .assign(let target, _) = step.kind, let name = target.path?.last { names.insert(name) }
                for block in StepWalk.nestedBlocks(of: step) { visit(block) }
                for closure in StepWalk.ownCalls(of: step).flatMap(\.closures) { visit(closure.steps) }
            }
        }
        visit(steps)
        return names
    }
}

extension CodeExpression {
    /// Every name the expression reads: each part of each reference path, and those of the calls' receivers and
    /// arguments (closures not included).
    var names: Set<String> {
        switch self {
        case .reference(let path): Set(path)
        case .call(let call):
            call.arguments.reduce(into: call.receiver?.names ?? []) { $0.formUnion($1.value.names) }.union([call.name])
        case .await(let inner): inner.names
        case .other(let parts): parts.reduce(into: []) { $0.formUnion($1.names) }
        case .closure, .literal: []
        }
    }
}
