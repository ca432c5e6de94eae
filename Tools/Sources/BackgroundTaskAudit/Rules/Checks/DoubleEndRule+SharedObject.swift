/// BT007 in an object used from several threads: the type locks some of its state (`@synchronized`,
/// `NSLock`, `withLock`, `os_unfair_lock`), which says its methods run on more than one thread, but the
/// helper that ends the stored identifier — called by the expiration handler (main thread) and by
/// another method (`stop`, `dealloc`) — checks and ends it with no lock. Both threads can read the live
/// identifier before either resets it, and end it twice.
extension DoubleEndRule {
    static func sharedObjectHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        guard analysis.begins.contains(where: { analysis.binding(of: $0)?.storage == .property }),
            firstLock(in: syntax.tokens.indices, syntax) != nil
        else { return [] }
        var hits: [RuleHit] = []
        var reported: Set<Int> = []
        let places = analysis.threadPlaces
        let functions = syntax.scopes.indices.filter { syntax.scopes[$0].kind == .function }
        for site in analysis.begins {
            guard let binding = analysis.binding(of: site), binding.storage == .property,
                let handler = analysis.handlerScope(of: site),
                let lock = firstLock(in: ownerRange(of: site.nameToken, syntax), syntax)
            else { continue }
            let handlerRegion = syntax.scopes[handler]
            for end in analysis.ends(of: binding) where !handlerRegion.contains(end.nameToken) {
                guard !places.isLocked(end.nameToken),
                    places.offMainPlace(of: end.nameToken, onlyQueueCallers: false) == nil,
                    let helper = syntax.namedFunction(containing: end.nameToken),
                    syntax.scopes[helper].kind == .function, let full = syntax.scopes[helper].name,
                    analysis.deferringClosure(of: end.nameToken, within: helper) == nil
                else { continue }
                let name = String(full.prefix { $0 != ":" })
                guard let fromHandler = analysis.helperEndCalls(in: handler, helpers: [name]).first else { continue }
                // Not `dealloc` / `deinit`: a handler that runs holds the object, so the two cannot overlap.
                let other = functions.first { function in
                    function != helper && !syntax.scopes[function].contains(site.nameToken)
                        && !["dealloc", "deinit"].contains(syntax.scopes[function].name ?? "")
                        && analysis.helperEndCalls(in: function, helpers: [name]).contains {
                            !handlerRegion.contains($0)
                        }
                }
                guard let other, let otherName = syntax.scopes[other].name,
                    reported.insert(end.nameToken).inserted
                else { continue }
                hits.append(
                    RuleHit(
                        token: end.nameToken,
                        message:
                            "`\(binding.written)` is checked and ended here with no lock, from the expiration handler "
                            + "(main thread, line \(syntax.tokens[fromHandler].line)) and from `\(otherName)`; this code "
                            + "locks other state (line \(syntax.tokens[lock].line)), so it runs on several threads: both can "
                            + "end the same identifier; check, end and reset under that lock, or use SafeBackgroundTask."
                    )
                )
            }
        }
        return hits
    }

    /// The tokens of the type around `index`: the Swift type or extension, or the Objective-C `@implementation`.
    private static func ownerRange(of index: Int, _ syntax: SourceSyntax) -> Range<Int> {
        if syntax.isSwift {
            let type = syntax.scopeChain(from: syntax.scope(containing: index)).last { syntax.scopes[$0].kind == .type }
            return type.map { syntax.scopes[$0].open..<syntax.scopes[$0].close } ?? syntax.tokens.indices
        }
        let start = syntax.tokens[..<index].lastIndex { $0.text == "@implementation" } ?? 0
        let end = syntax.tokens[index...].firstIndex { $0.text == "@end" } ?? syntax.tokens.count
        return start..<end
    }

    /// The first lock taken in `range`: `@synchronized`, `NSLock` / `NSRecursiveLock`, `os_unfair_lock_lock`,
    /// `pthread_mutex_lock`, `withLock`, `OSAllocatedUnfairLock`.
    private static func firstLock(in range: Range<Int>, _ syntax: SourceSyntax) -> Int? {
        let names: Set<String> = [
            "@synchronized", "NSLock", "NSRecursiveLock", "os_unfair_lock_lock", "pthread_mutex_lock", "withLock",
            "OSAllocatedUnfairLock",
        ]
        return range.first { names.contains(syntax.tokens[$0].text) }
    }
}
