/// BT003 and BT004 over the code model: a begin's expiration handler is missing, or does not end the task before it
/// returns. Each finding carries its chain; one that rests on code the index cannot read, or on how long an object
/// lives, is `suspected`.
public struct HandlerRules: Sendable {
    /// The project's declarations.
    public let index: ProjectIndex

    /// Creates the rules over `index`.
    public init(index: ProjectIndex) {
        self.index = index
    }

    /// The findings for one begin.
    public func findings(for site: BeginSite) -> [AnalysisFinding] {
        findings(for: site, shimDepth: 2)
    }

    private func findings(for site: BeginSite, shimDepth: Int) -> [AnalysisFinding] {
        // A handler kept in a local first (`let whenExpired = { … }`) is that closure.
        var site = site
        if let path = site.handler?.path, path.count == 1,
            case .closure(let closure)? = StepWalk.localValue(of: path[0], in: site.body.steps)
        {
            site.handler = .closure(closure)
        }
        let begin = EvidenceLink("begins a background task", at: site.call.location)
        // A shim of the project that passes its caller's handler on: the caller's handler is what runs. A handler
        // that also ends the task itself owns the end: the caller's is only told, and the shim's is checked.
        if let handler = site.handler,
            RawBeginRule.passesOn(handler, Set(site.body.parameters.filter(\.isClosure).map(\.name))),
            !endsItself(handler, in: site.body.typeName)
        {
            return shimDepth > 0 ? shimCallers(site, handler, depth: shimDepth - 1) : []
        }
        switch site.handler {
        case nil:
            return [missing(site, begin, "it is begun without an expiration handler")]
        case .literal(.nil):
            return [missing(site, begin, "its expiration handler is nil")]
        case .closure(let handler) where handler.steps.isEmpty:
            return [missing(site, begin, "its expiration handler is empty")]
        case .closure(let handler):
            return lateOrMissingEnd(site, begin, handler)
        case .some(let other):
            // A method of the begin's type named by the reference (`self.onExpire`, `onExpire`), not any body of
            // that name elsewhere: a local or a parameter holds a value the index cannot follow.
            let isLocal =
                other.path.map { path in
                    path.count == 1
                        && (StepWalk.declares(path[0], in: site.body.steps)
                            || site.body.parameters.contains { $0.name == path[0] })
                } ?? true
            guard let path = other.path, let name = path.last, !isLocal, path.count <= 2,
                path.count == 1 || path[0] == "self",
                let body = site.body.typeName.flatMap({ type in
                    index.methods(named: name, in: type).first(where: { $0.kind != .closure })
                })
            else {
                return [
                    AnalysisFinding(
                        ruleID: "BT004", location: site.call.location,
                        chain: [
                            begin,
                            EvidenceLink(
                                "its handler is held in a value the index cannot follow", at: site.call.location,
                                isEstablished: false),
                        ])
                ]
            }
            return lateOrMissingEnd(site, begin, body)
        }
    }

    /// Whether a shim's handler closure ends the task itself (on some path at least), besides calling its caller's.
    private func endsItself(_ handler: CodeExpression, in typeName: String?) -> Bool {
        guard case .closure(let closure) = handler else { return false }
        switch EndAnalysis(index: index).outcome(of: closure, in: typeName) {
        case .neverEnds, .unresolved: return false
        case .endsBeforeReturning, .endsLate, .endsOnSomePaths, .endsBehindWeakReference: return true
        }
    }

    /// The findings at the project's calls of a shim (a method that begins a task with the handler its caller
    /// passes): each caller's handler is checked as if it were passed to the begin, and reported at the call.
    private func shimCallers(_ site: BeginSite, _ handler: CodeExpression, depth: Int) -> [AnalysisFinding] {
        guard let shim = site.body.name, site.body.kind != .closure else { return [] }
        var parameterName = handler.path?.first
        if case .closure(let closure) = handler {
            parameterName = closure.calls.first { call in site.body.parameters.contains { $0.name == call.name } }?.name
        }
        guard let position = site.body.parameters.firstIndex(where: { $0.name == parameterName }) else { return [] }
        var found: [AnalysisFinding] = []
        // Objective-C calls a Swift shim by its selector (`holdWithNamed:onExpiry:`), and passes every argument.
        let objectiveCNames = Set(TaskShims.objectiveCNames(of: site.body))
        for name in [shim] + objectiveCNames.sorted() {
            for caller in index.callers(of: name) {
                for call in caller.calls where call.name == name {
                    // A call the audit reads as a system begin already (a shim that mirrors UIKit's name) is checked
                    // as one.
                    if case .begin = SystemCall(call) { continue }
                    let resolution: CallResolution
                    if objectiveCNames.contains(name) {
                        guard call.arguments.count == site.body.parameters.count else { continue }
                        let onItsType = call.receiver?.path == [site.body.typeName ?? ""]
                        resolution = CallResolution(declarations: [site.body], isShown: onItsType)
                    } else {
                        resolution = index.resolve(call, in: caller.typeName, locals: caller.steps)
                    }
                    guard resolution.declarations.contains(where: { $0 === site.body }),
                        let passed = call.value(passedFor: position, of: site.body)
                    else { continue }
                    // A default other than `nil` is code the audit does not read.
                    if case .literal(.other) = passed { continue }
                    found += callerFindings(
                        site, call: call, caller: caller, handler: passed, resolution: resolution, depth: depth)
                }
            }
        }
        return found
    }

    /// The findings for one call of a shim, checked as a begin with the handler `handler`, their chains led by the
    /// call and the shim's begin.
    private func callerFindings(
        _ site: BeginSite, call: CodeCall, caller: CodeBody, handler: CodeExpression, resolution: CallResolution,
        depth: Int
    ) -> [AnalysisFinding] {
        let shim = site.body.name ?? call.name
        let callerSite = BeginSite(call: call, body: caller, name: nil, handler: handler)
        let given = if case .literal(.nil) = handler { "no handler" } else { "this handler" }
        // A call matched by its name alone may reach another type's method, or a library's.
        let passes = EvidenceLink(
            resolution.isShown
                ? "passes \(given) to `\(shim)`, which begins a background task with what it is given"
                : "passes \(given) to a method named `\(shim)`; that it reaches the shim below, and not another "
                    + "type's or a library's method of that name, is not shown",
            at: call.location, isEstablished: resolution.isShown)
        return findings(for: callerSite, shimDepth: depth).map { finding in
            var finding = finding
            finding.chain =
                [passes, EvidenceLink("the shim begins the task here", at: site.call.location)]
                + finding.chain.dropFirst()
            return finding
        }
    }

    private func missing(_ site: BeginSite, _ begin: EvidenceLink, _ text: String) -> AnalysisFinding {
        AnalysisFinding(
            ruleID: "BT003", location: site.call.location,
            chain: [begin, EvidenceLink("\(text): nothing ends the task when time runs out", at: site.call.location)])
    }

    private func lateOrMissingEnd(_ site: BeginSite, _ begin: EvidenceLink, _ handler: CodeBody) -> [AnalysisFinding] {
        var analysis = EndAnalysis(index: index)
        analysis.locals = site.body.steps
        let outcome = analysis.outcome(of: handler, in: site.body.typeName)
        let chain: [EvidenceLink]
        switch outcome {
        case .endsBeforeReturning:
            return []
        case .endsLate(let links), .endsOnSomePaths(let links), .neverEnds(let links), .unresolved(let links):
            chain = links
        case .endsBehindWeakReference(let links):
            chain =
                links + [
                    EvidenceLink(
                        "whether that object can be gone when time runs out depends on what keeps it alive",
                        at: handler.location, isEstablished: false)
                ]
        }
        return [AnalysisFinding(ruleID: "BT004", location: site.call.location, chain: [begin] + chain)]
    }
}
