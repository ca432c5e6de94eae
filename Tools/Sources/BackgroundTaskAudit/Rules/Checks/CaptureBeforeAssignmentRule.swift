/// BT006: a handler that captures the identifier before the begin call has assigned it.
///
/// Objective-C: a local without `__block` is copied into the block when the block is created, before
/// the call returns. Swift: a capture list (`[task] in`) copies it the same way; an optional or
/// implicitly unwrapped local `var` read by its own handler is still `nil` when the handler runs
/// before `beginBackgroundTask` has returned, which needs a begin off the main thread (the code base
/// shows it on a queue) and little time left. And any
/// identifier stored after a begin made off the main thread (``offMainHits(in:)``).
enum CaptureBeforeAssignmentRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT006",
        severity: .error,
        summary: "Identifier captured by its own handler before the begin call assigned it"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        captureHits(in: analysis) + offMainHits(in: analysis) + deferredStoreHits(in: analysis)
    }

    private static func captureHits(in analysis: FileAnalysis) -> [RuleHit] {
        analysis.begins.compactMap { site in
            guard let handler = analysis.handlerScope(of: site), let binding = analysis.binding(of: site),
                // A member of a local box (`task.taskID = …`): the block captures the box, already set.
                !binding.written.contains("."), !binding.written.contains("->")
            else {
                return nil
            }
            let body = analysis.bodyStart(of: handler)..<analysis.syntax.scopes[handler].close
            let variable = analysis.syntax.tokens[binding.declaration ?? site.start].text
            let name = binding.declaration == nil ? binding.written : variable
            if analysis.syntax.isSwift {
                if analysis.valueCaptures(of: handler).contains(name) {
                    return RuleHit(
                        token: site.nameToken,
                        message:
                            "The capture list copies `\(name)` before this call assigns it: the handler ends the old "
                            + "value, the task leaks and iOS kills the app (0x8badf00d); drop it from the capture list, or use SafeBackgroundTask."
                    )
                }
                // Read, not only assigned: a handler that just sets it (`task = .invalid`) ends nothing through it.
                let syntax = analysis.syntax
                let reads = body.contains { index in
                    syntax.tokens[index].isIdentifier(name) && syntax.token(index - 1)?.is(".") != true
                        && syntax.token(index + 1)?.is("=") != true
                }
                // The handler runs on the main thread: begun there, it cannot run before the assignment. Only a begin
                // the code base shows off the main thread can lose the race.
                guard case .local = binding.storage, binding.isOptional, reads,
                    let place = analysis.threadPlaces.offMainPlace(of: site.nameToken, onlyQueueCallers: false)
                else {
                    return nil
                }
                return RuleHit(
                    token: site.nameToken,
                    message:
                        "The handler reads `\(name)`, which this call assigns, and the begin runs off the main thread "
                        + "(\(place)): if the handler runs before the call returns (little time left) the end is skipped and "
                        + "iOS kills the app (0x8badf00d); use SafeBackgroundTask."
                )
            }
            guard case .local = binding.storage, !binding.isBlockQualified, analysis.mentions(name, in: body) else {
                return nil
            }
            return RuleHit(
                token: site.nameToken,
                message:
                    "The handler block captures `\(name)` without __block: it ends the value from before this call, "
                    + "the task leaks and iOS kills the app (0x8badf00d); declare it `__block`, or use SafeBackgroundTask."
            )
        }
    }
}
