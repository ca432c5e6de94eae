/// BT006, the identifier stored later: the begin's result goes into a local that is handed on only
/// inside a closure that runs later (`Task { await state.set(task) }`, `queue.async { self.task =
/// task }`), while the handler reads the stored value, not the local. If the handler runs first —
/// at once, when background time is already used up — it finds nothing to end, and the task leaks.
extension CaptureBeforeAssignmentRule {
    static func deferredStoreHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site),
                case .local(let declaring) = binding.storage,
                let named = syntax.namedFunction(containing: site.nameToken) ?? declaring
            else { continue }
            // "Later" is relative to the begin: a store in the same main-queue block as the begin is not later.
            let function = syntax.executableScope(containing: site.nameToken) ?? named
            let handlerRegion = syntax.scopes[handler]
            // The handler itself must not read the local: then there is no race on a stored copy.
            if analysis.mentions(binding.name, in: (handlerRegion.open + 1)..<handlerRegion.close) { continue }
            let region = syntax.scopes[function]
            var mentions: [Int] = []
            for index in Range(guarding: site.end + 1, region.close)
            where syntax.tokens[index].isIdentifier(binding.name) {
                if !handlerRegion.contains(index) { mentions.append(index) }
            }
            guard !mentions.isEmpty,
                let later = mentions.map({ analysis.deferringClosure(of: $0, within: function) }).first(where: {
                    $0 != nil
                }) ?? nil,
                mentions.allSatisfy({ mention in
                    if case .asynchronous = analysis.deferringClosure(of: mention, within: function)?.timing {
                        return true
                    }
                    return false
                }),
                !analysis.endCalls.contains(where: { end in
                    mentions.contains { end.endArgument?.contains($0) == true }
                })
            else { continue }
            let via = later.timing.callName.map { "inside `\($0)`" } ?? "inside a closure"
            let line = syntax.tokens[syntax.scopes[later.scope].open].line
            hits.append(
                RuleHit(
                    token: site.nameToken,
                    message: "`\(binding.written)` is handed on only later, \(via) (line \(line)), while the handler "
                        + "reads what was stored: if it runs first it finds nothing to end and iOS kills the app (0x8badf00d); "
                        + "store it before the handler can run, or use SafeBackgroundTask."
                )
            )
        }
        return hits
    }
}
