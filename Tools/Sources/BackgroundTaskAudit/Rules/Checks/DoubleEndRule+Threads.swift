/// BT007 across threads: the expiration handler (always on the main thread) ends the identifier,
/// and so does code that runs on a queue, with no lock between them — the check-then-end pattern
/// `if (task != invalid) { end(task); task = invalid; }` on two threads.
///
/// Both threads can read the same valid identifier before either resets it: the task is ended
/// twice, or the reset on one thread wipes out the identifier of a newer task begun meanwhile. An
/// end counts as locked inside `@synchronized` or a closure run synchronously (`queue.sync`,
/// `withLock`, `…_sync`); where the queue side is locked the pair is not reported. "On a queue" is
/// what ``ThreadPlaces`` can see in this file.
extension DoubleEndRule {
    static func crossThreadHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        var reported: Set<Int> = []
        var hits: [RuleHit] = []
        // Ends inside any expiration handler run on the main thread.
        let handlers = analysis.begins.compactMap { analysis.handlerScope(of: $0) }.map { syntax.scopes[$0] }
        for site in analysis.begins {
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site) else {
                continue
            }
            let ends = analysis.ends(of: binding).map(\.nameToken)
            guard !ends.isEmpty else { continue }
            let region = syntax.scopes[handler]
            // The ends the handler reaches: its own, and those in same-file helpers it calls.
            let calledHelpers = Set(
                analysis.helperEndCalls(in: handler, helpers: analysis.functionsThatEnd).map { syntax.tokens[$0].text }
            )
            let reached = ends.filter { end in
                if region.contains(end) { return true }
                // In a local block the handler calls: `dispatch_block_t done = ^{ … }; … ^{ done(); }`.
                if calledHelpers.contains(where: { name in
                    analysis.localClosures[name]?.contains { syntax.scopes[$0].contains(end) } == true
                }) {
                    return true
                }
                guard let function = syntax.namedFunction(containing: end), let name = syntax.scopes[function].name
                else { return false }
                return calledHelpers.contains(String(name.prefix { $0 != ":" }))
            }
            guard let handlerEnd = reached.first else { continue }
            let places = analysis.threadPlaces
            for end in ends where !reported.contains(end) && !handlers.contains(where: { $0.contains(end) }) {
                guard !places.isLocked(end) else { continue }
                let place: String?
                if let queue = places.offMainPlace(of: end, onlyQueueCallers: false) {
                    place = queue
                } else if !places.isInBlockRunOnMain(end),
                    syntax.namedFunction(containing: end) == syntax.namedFunction(containing: site.nameToken),
                    let queue = places.offMainPlace(of: site.nameToken, onlyQueueCallers: false)
                {
                    place = queue
                } else {
                    place = nil
                }
                guard let place else { continue }
                reported.insert(end)
                let other =
                    reached.contains(end)
                    ? "the expiration handler runs this same end on the main thread"
                    : "the expiration handler ends it on the main thread (line \(syntax.tokens[handlerEnd].line))"
                hits.append(
                    RuleHit(
                        token: end,
                        message:
                            "`\(binding.written)` is ended here on a queue (\(place)) and \(other), with no lock: both can "
                            + "end the same identifier; check, end and reset under one lock, or use SafeBackgroundTask."
                    )
                )
            }
        }
        return hits
    }
}
