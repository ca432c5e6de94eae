/// BT005: a begin whose identifier is kept in a property, instance variable or global — directly,
/// or copied there from a local — where a second begin can overwrite it before the first task ends.
///
/// Stays silent where a second begin cannot overwrite a live identifier: the begin is in an
/// initializer or an operation's `start`/`main` (a one-shot owner), it is behind an "already
/// started" check of the same variable (`if (self.task != UIBackgroundTaskInvalid) return;`) or of a
/// flag set before the begin and cleared with the end (`guard !isSyncing else { return }; isSyncing = true`), or the
/// same function ends the old task first (`[self endTask]; self.task = [app begin…]`), or it begins
/// on entering the background and the return to the foreground ends it.
enum StoredIdentifierRule: RuleChecking {
    static let rule = AuditRule(
        id: "BT005",
        severity: .warning,
        summary: "Task identifier stored in a property where a second begin can overwrite it"
    )

    static func hits(in analysis: FileAnalysis) -> [RuleHit] {
        analysis.storedIdentifierHits
    }

    static func uncachedHits(in analysis: FileAnalysis) -> [RuleHit] {
        let syntax = analysis.syntax
        return analysis.begins.compactMap { site in
            guard let binding = analysis.binding(of: site) else { return nil }
            let written: String
            // The property that keeps the identifier (the copy's target, for a local copied there).
            var stored = binding
            if binding.storage == .property {
                written = binding.written
            } else if let copy = propertyCopy(of: binding, after: site, in: analysis) {
                written = copy
                let name = copy.split(whereSeparator: { $0 == "." || $0 == ">" }).last.map(String.init) ?? copy
                stored = IdentifierBinding.property(name: String(name.drop { $0 == "_" }), written: copy)
            } else {
                return nil
            }
            // A stored property's initializer runs once per object (or once, for a static).
            guard let function = syntax.namedFunction(containing: site.nameToken) else { return nil }
            if isOneShot(function, in: analysis) || analysis.isPerCallOwner(site, endedByCreator: false) { return nil }
            // The check may name the local or the property it is copied into (`guard self.task == .invalid`), or
            // the object that property belongs to (`if (![_tasks containsObject:task]) { … task.identifier = … }`).
            let object = written.split(whereSeparator: { $0 == "." || $0 == ">" }).first.map {
                String($0.drop { $0 == "_" }).replacingOccurrences(of: "-", with: "")
            }
            let holder = object.flatMap { written.contains(".") || written.contains("->") ? $0 : nil }
                .flatMap { SourceSyntax.namesSelf($0) ? nil : IdentifierBinding.property(name: $0, written: $0) }
            if isGuarded(site, binding: binding, in: function, analysis)
                || (stored.name != binding.name && isGuarded(site, binding: stored, in: function, analysis))
                || holder.map({ isGuarded(site, binding: $0, in: function, analysis) }) == true
                || isGuardedInCallers(site, binding: stored, function: function, analysis)
            {
                return nil
            }
            let helpers = analysis.functionsThatEnd
            if endsFirst(site, binding: binding, in: function, helpers: helpers, analysis) { return nil }
            if endsOnForeground(function, binding: stored, helpers: helpers, analysis) { return nil }
            // Checked, but unlocked off the main thread: say so, the check is what the reader sees.
            if let place = analysis.threadPlaces.offMainPlace(of: site.nameToken, onlyQueueCallers: false),
                isGuarded(site, binding: binding, in: function, analysis, ignoringThreads: true)
                    || isGuarded(site, binding: stored, in: function, analysis, ignoringThreads: true)
            {
                return RuleHit(
                    token: site.nameToken,
                    message: "The check before this begin is not locked, and the begin runs off the main thread "
                        + "(\(place)): two threads can both pass it, and the second begin overwrites `\(written)`, so the "
                        + "first task leaks and iOS kills the app (0x8badf00d); check and begin under one lock, or use "
                        + "SafeBackgroundTask or BackgroundTaskManager."
                )
            }
            if binding.storage != .property {
                return RuleHit(
                    token: site.nameToken,
                    message: "The task identifier is copied into `\(written)`: a second run overwrites the copy, ends "
                        + "through it hit the newer task and the first runs to expiry; use SafeBackgroundTask or BackgroundTaskManager."
                )
            }
            return RuleHit(
                token: site.nameToken,
                message:
                    "The task identifier is kept in `\(written)`: a second run before the task ends overwrites it, "
                    + "the first task leaks and iOS kills the app (0x8badf00d); use SafeBackgroundTask or BackgroundTaskManager."
            )
        }
    }

    /// `self.task = task;` / `self.task = task` later in the function that holds the local.
    static func propertyCopy(of binding: IdentifierBinding, after site: CallSite, in analysis: FileAnalysis)
        -> String?
    {
        let syntax = analysis.syntax
        guard let function = syntax.namedFunction(containing: site.nameToken) else { return nil }
        let close = syntax.scopes[function].close
        var index = site.end + 1
        while index + 1 < close {
            defer { index += 1 }
            let token = syntax.tokens[index]
            guard token.kind == .operator, token.text == "=", syntax.tokens[index + 1].isIdentifier(binding.name),
                let after = syntax.token(index + 2),
                after.is(";") || after.line > syntax.tokens[index + 1].line || after.is("}")
            else { continue }
            // The target: `self.x`, `self->_x`, `_x`, `owner.x` on the same line.
            var start = index - 1
            while start > 0, syntax.tokens[start - 1].line == token.line,
                syntax.tokens[start - 1].kind == .identifier || syntax.tokens[start - 1].is(".")
                    || syntax.tokens[start - 1].text == "->"
            {
                start -= 1
            }
            let target = syntax.text(start..<index)
            // Swift: a bare name the function does not declare is a property (`saveTask = task`).
            let isUndeclaredSwiftName =
                syntax.isSwift && start == index - 1 && syntax.tokens[start].kind == .identifier
                && !declaresLocal(syntax.tokens[start].text, in: function, syntax)
            let isProperty =
                target.contains(".") || target.contains("->") || target.hasPrefix("_") || isUndeclaredSwiftName
            if isProperty, target != binding.written { return target }
        }
        return nil
    }

    /// Whether `let name` / `var name` (or a parameter `name:`) appears in the function.
    private static func declaresLocal(_ name: String, in function: Int, _ syntax: SourceSyntax) -> Bool {
        if ForwardedArguments(syntax: syntax).signature(of: function)?.parameters.contains(name) == true { return true }
        let region = syntax.scopes[function]
        return ((region.open + 1)..<region.close).contains { index in
            syntax.tokens[index].isIdentifier(name)
                && (syntax.token(index - 1)?.isIdentifier("var") == true
                    || syntax.token(index - 1)?.isIdentifier("let") == true)
        }
    }

    /// An initializer, or `start` / `main` of an operation: runs once per object.
    private static func isOneShot(_ function: Int, in analysis: FileAnalysis) -> Bool {
        let syntax = analysis.syntax
        guard let name = syntax.scopes[function].name else { return false }
        if name == "init" || (name.hasPrefix("init") && name.contains(":")) { return true }
        return analysis.isOperationEntryPoint(function)
    }

    /// A `return` before the begin whose condition tests the same variable (`guard task == .invalid`).
    private static func isGuarded(
        _ site: CallSite, binding: IdentifierBinding, in function: Int, _ analysis: FileAnalysis,
        ignoringThreads: Bool = false
    )
        -> Bool
    {
        let syntax = analysis.syntax
        let open = syntax.scopes[function].open
        // Off the main thread, an unlocked check is no guard: two threads can both pass it.
        let places = analysis.threadPlaces
        if !ignoringThreads, places.offMainPlace(of: site.nameToken, onlyQueueCallers: false) != nil,
            !places.isLocked(site.nameToken)
        {
            return false
        }
        // The begin inside `if (task == invalid)`, or `if (shouldStart)` where
        // `shouldStart = … task == invalid …` was computed in the same function; or after a `return` decided so.
        func testsIdentifier(_ condition: Range<Int>) -> Bool {
            if analysis.mentionsVariable(binding.name, in: condition) { return true }
            for index in condition where syntax.tokens[index].kind == .identifier {
                let local = syntax.tokens[index].text
                var cursor = open + 1
                while cursor < condition.lowerBound {
                    defer { cursor += 1 }
                    guard syntax.tokens[cursor].isIdentifier(local) else { continue }
                    // `local = …`, `let local: Bool = (…)` on one line.
                    var equals = cursor + 1
                    while let token = syntax.token(equals), token.line == syntax.tokens[cursor].line, !token.is("="),
                        !token.is(";"), !token.is("{"), equals < cursor + 8
                    {
                        equals += 1
                    }
                    guard let token = syntax.token(equals), token.kind == .operator, token.text == "=" else { continue }
                    var end = equals + 1
                    while end < condition.lowerBound, !syntax.tokens[end].is(";"),
                        syntax.tokens[end].line == syntax.tokens[cursor].line
                    {
                        end += 1
                    }
                    if analysis.mentionsVariable(binding.name, in: (equals + 1)..<end) { return true }
                }
            }
            return false
        }
        for condition in analysis.enclosingConditions(of: site.nameToken, within: function)
        where testsIdentifier(condition) {
            return true
        }
        for index in Range(guarding: open + 1, site.start) where syntax.tokens[index].isIdentifier("return") {
            guard
                let condition = analysis.exitCondition(of: index, within: function)
            else { continue }
            if testsIdentifier(condition) { return true }
        }
        return !analysis.guardFlags(of: site, in: function).isEmpty
    }

    /// A private begin helper (`private func startBackgroundTask()`) whose every call in the file is guarded
    /// there: `guard backgroundTaskId == .invalid else { return }; startBackgroundTask()`.
    private static func isGuardedInCallers(
        _ site: CallSite, binding: IdentifierBinding, function: Int, _ analysis: FileAnalysis
    ) -> Bool {
        let syntax = analysis.syntax
        guard syntax.isSwift, let full = syntax.scopes[function].name,
            ProjectVocabulary.isPrivate(declaredBefore: syntax.scopes[function].open, syntax)
        else { return false }
        let name = String(full.prefix { $0 != ":" })
        // The calls in this type's code (another class of the file may have a method of the same name).
        let types = TypeRanges(syntax)
        let owner = types.name(at: site.nameToken)
        let calls = syntax.scopes.indices.filter { $0 != function && syntax.scopes[$0].kind == .function }
            .flatMap { analysis.helperEndCalls(in: $0, helpers: [name]) }
            .filter { types.name(at: $0) == owner }
        guard !calls.isEmpty else { return false }
        return calls.allSatisfy { call in
            guard let caller = syntax.namedFunction(containing: call) else { return false }
            var entry = site
            (entry.nameToken, entry.start, entry.end) = (call, call, call)
            return isGuarded(entry, binding: binding, in: caller, analysis)
        }
    }

    /// A begin on entering the background whose task the return to the foreground ends: the app cannot
    /// enter the background again without passing the end first. "On entering the background" is a function
    /// named so (`applicationDidEnterBackground`), a `case` of a notification switch named so
    /// (`case UIApplication.didEnterBackgroundNotification:`), or a private helper only those call.
    private static func endsOnForeground(
        _ function: Int,
        binding: IdentifierBinding,
        helpers: Set<String>,
        _ analysis: FileAnalysis
    ) -> Bool {
        let syntax = analysis.syntax
        guard Lifecycle.of(function, analysis) == .background else { return false }
        // The end must run in the foreground callback itself, not later on a queue (after which a
        // quick return to the background can still overwrite the identifier first).
        func isForeground(_ token: Int) -> Bool {
            guard let other = syntax.namedFunction(containing: token),
                analysis.deferringClosure(of: token, within: other) == nil
            else { return false }
            return Lifecycle.at(token, in: other, analysis) == .foreground
        }
        if analysis.ends(of: binding).contains(where: { isForeground($0.nameToken) }) { return true }
        return syntax.scopes.indices.contains { scope in
            syntax.scopes[scope].kind == .function
                && analysis.helperEndCalls(in: scope, helpers: helpers).contains(where: isForeground)
        }
    }

    /// An end of the same variable, or a call of a same-file function that ends a task, before the begin
    /// in the same function: the old task is ended before the new one is stored.
    private static func endsFirst(
        _ site: CallSite,
        binding: IdentifierBinding,
        in function: Int,
        helpers: Set<String>,
        _ analysis: FileAnalysis
    ) -> Bool {
        let syntax = analysis.syntax
        let open = syntax.scopes[function].open
        // Only ends that run before the begin: not those in a completion handler declared earlier.
        func runsFirst(_ token: Int) -> Bool {
            token > open && token < site.start && analysis.deferringClosure(of: token, within: function) == nil
        }
        if analysis.ends(of: binding).contains(where: { runsFirst($0.nameToken) }) { return true }
        return analysis.helperEndCalls(in: function, helpers: helpers).contains(where: runsFirst)
    }
}
