/// BT006, off the main thread: the begin runs on a queue, and the identifier is stored only after
/// `beginBackgroundTask` returns, while the handler — on the main thread — reads it.
///
/// When background time is already exhausted iOS calls the handler at once, on the main thread,
/// while the queue is still inside the begin call: the handler reads the old value (invalid, or the
/// previous task's), ends nothing or the wrong task, and the new task leaks.
///
/// "On a queue" is what the file shows: the begin is inside a closure handed to an asynchronous
/// call that is not the main queue's (`queue.async`, `dispatch_async(queue, …)`, `addOperation`),
/// inside an operation's `start` / `main`, or in a function that this file calls only from such a
/// closure. A begin in a function called from other files' queues is not seen.
extension CaptureBeforeAssignmentRule {
    static func offMainHits(in analysis: FileAnalysis) -> [RuleHit] {
        var hits: [RuleHit] = []
        for site in analysis.begins {
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site) else {
                continue
            }
            // The handler reads the identifier, itself or through a same-file function that ends it.
            let region = analysis.syntax.scopes[handler]
            guard
                analysis.readsVariable(binding.name, in: (region.open + 1)..<region.close)
                    || !analysis.helperEndCalls(in: handler, helpers: analysis.functionsThatEnd).isEmpty,
                let queue = analysis.threadPlaces.offMainPlace(of: site.nameToken, onlyQueueCallers: true)
            else { continue }
            hits.append(
                RuleHit(
                    token: site.nameToken,
                    message:
                        "Begun off the main thread (\(queue)), `\(binding.written)` is stored after the call returns: "
                        + "an immediate expiry ends the old value and iOS kills the app (0x8badf00d); begin on main, or use SafeBackgroundTask."
                )
            )
        }
        return hits
    }
}
