import AuditCodeModel

/// Audits one file's bytes: checks they are text, runs every token rule (all but the code model's, when the code model
/// decides the defects), applies suppressions.
enum FileAuditor {
    /// What auditing one file gave.
    enum Outcome: Sendable {
        /// `inTestCode`: findings of test code left out (``AuditConfiguration/includesTestCode``).
        case audited(findings: [Finding], suppressed: Int, inTestCode: Int = 0)
        case skipped(SkippedFile)
    }

    /// What reading a file gave.
    enum Read: Sendable {
        case skipped(SkippedFile)
        /// It cannot call the APIs (nor the shims it was asked about): nothing to check.
        case noCalls
        case parsed(SourceSyntax)
        /// Read before and found worth checking; read again when checked (so that a large code
        /// base's syntax is not all kept in memory at once).
        case readAgain
    }

    /// The defect rules whose token findings are kept as suspected patterns beside the code model's: those that
    /// depend on the threads a task's begin, handler and ends run on and on the paths through the app's own callbacks,
    /// which the code model establishes least often. (The code model reads a handler whole: BT003, BT004, BT009 and
    /// the launch-handler rules are its alone.)
    static let patternRules: Set<String> = ["BT005", "BT006", "BT007", "BT008"]

    /// How a token rule's defect finding starts when the code model decides the defects.
    static let patternPrefix = "Suspected: the rule's pattern, with no chain the code model could establish. "

    /// Deeper brace nesting than this is not analysed.
    static let maximumNesting = 256
    /// More calls of the system APIs in one file than this are not analysed.
    static let maximumCallSites = 4096

    /// What reading one file gave: its syntax when it may call the APIs or mentions one of `names`
    /// (a shim, a function that begins or ends a task), `noCalls` when not, or why it was skipped.
    static func syntax(
        bytes: [UInt8],
        path: String,
        language: SourceLanguage,
        names: Set<String> = []
    ) -> FileAuditor.Read {
        switch TextCheck.classify(bytes) {
        case .binary:
            return .skipped(SkippedFile(path: path, reason: .binary, detail: "binary file (contains NUL bytes)"))
        case .invalidUTF8(let offset):
            return .skipped(
                SkippedFile(path: path, reason: .notUTF8, detail: "not valid UTF-8 (at byte \(offset))")
            )
        case .text:
            break
        }
        guard CallSiteFinder.mayContainCalls(bytes) || CallSiteFinder.mentionsAnyWord(names, in: bytes) else {
            return .noCalls
        }
        let syntax = SourceSyntax(bytes: bytes, language: language)
        guard syntax.maximumDepth <= maximumNesting else {
            return .skipped(
                SkippedFile(
                    path: path,
                    reason: .tooComplex,
                    detail: "braces nested deeper than \(maximumNesting) levels (not analysed)"
                )
            )
        }
        return .parsed(syntax)
    }

    /// Audits one file's bytes on their own: its own shims are the only ones known.
    static func audit(
        bytes: [UInt8],
        path: String,
        language: SourceLanguage,
        configuration: AuditConfiguration
    ) -> Outcome {
        switch syntax(bytes: bytes, path: path, language: language) {
        case .skipped(let skipped):
            return .skipped(skipped)
        case .noCalls, .readAgain:
            return .audited(findings: [], suppressed: 0)
        case .parsed(let syntax):
            let plain = FileAnalysis(
                syntax: syntax,
                path: path,
                isAllowedWrapperPath: configuration.isAllowedWrapper(path)
            )
            var vocabulary = ProjectVocabulary.collect(from: plain)
            vocabulary.permittedTaskIdentifiers = configuration.permittedTaskIdentifiers
            return audit(
                syntax: syntax,
                path: path,
                configuration: configuration,
                vocabulary: vocabulary,
                reusing: plain.knowing(vocabulary)
            )
        }
    }

    /// Runs every rule over a file's syntax and applies its suppressions.
    /// `pathBelowRoot`: the path below the folder named on the command line, which tells test code by its folders
    /// (the whole path when `nil`: an in-memory audit's path is taken as relative).
    static func audit(
        syntax: SourceSyntax,
        path: String,
        pathBelowRoot: String? = nil,
        configuration: AuditConfiguration,
        vocabulary: ProjectVocabulary,
        reusing prepared: FileAnalysis? = nil
    ) -> Outcome {
        let analysis =
            prepared
            ?? FileAnalysis(
                syntax: syntax,
                path: path,
                isAllowedWrapperPath: configuration.isAllowedWrapper(path),
                vocabulary: vocabulary
            )
        guard
            !analysis.sites.isEmpty || DiscardedTaskRule.mayApply(to: syntax)
                || ScheduledTaskHandlers.mayApply(to: syntax)
        else {
            return .audited(findings: [], suppressed: 0)
        }
        guard analysis.sites.count <= maximumCallSites else {
            return .skipped(
                SkippedFile(
                    path: path,
                    reason: .tooComplex,
                    detail: "more than \(maximumCallSites) background-task calls in one file (not analysed)"
                )
            )
        }
        let suppressions = Suppressions(
            syntax.suppressions,
            tokenLines: syntax.suppressions.isEmpty ? [] : Set(syntax.tokens.map { Int($0.line) })
        )
        var findings: [Finding] = []
        var suppressed = 0
        var seen: Set<String> = []
        // With the code model deciding the defects, a token rule's defect finding is only a pattern: suspected, kept
        // where the code model found nothing of the same rule there (``Auditor``), and never counted as suppressed or
        // as test code (the code model counts its own). Patterns are looked for only when suspected findings are
        // reported: at the proven level they would only be counted.
        let modelRules = configuration.engine == .codeModel ? AnalysisRules.ruleIDs : []
        let patterns = configuration.level.reports(.suspected) ? Self.patternRules : []
        for checker in RuleCatalog.checkers
        where !modelRules.contains(checker.rule.id) || patterns.contains(checker.rule.id) {
            let rule = checker.rule
            let isPattern = modelRules.contains(rule.id)
            for hit in checker.hits(in: analysis) {
                let token = syntax.tokens[hit.token]
                guard seen.insert("\(rule.id):\(hit.token)").inserted else { continue }
                if suppressions.silences(rule.id, onLine: Int(token.line)) {
                    if !isPattern { suppressed += 1 }
                    continue
                }
                findings.append(
                    Finding(
                        ruleID: rule.id,
                        severity: rule.severity,
                        path: path,
                        location: token.location,
                        function: analysis.functionName(at: hit.token),
                        message: (isPattern ? patternPrefix : "")
                            + ObjectiveCAdvice.adapt(hit.message, to: syntax.language)
                            + " (more: bgtask audit --explain \(rule.id))",
                        certainty: isPattern ? .suspected : .proven
                    )
                )
            }
        }
        findings.sort { ($0.location, $0.ruleID) < ($1.location, $1.ruleID) }
        if !findings.isEmpty, syntax.importsTestFramework || TestCode.isTestPath(pathBelowRoot ?? path) {
            guard configuration.includesTestCode else {
                return .audited(
                    findings: [], suppressed: suppressed, inTestCode: findings.count { $0.certainty == .proven })
            }
            for index in findings.indices { findings[index].message = "In test code: " + findings[index].message }
        }
        return .audited(findings: findings, suppressed: suppressed)
    }
}
