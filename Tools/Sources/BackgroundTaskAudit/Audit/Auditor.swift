import AuditCodeModel
import Foundation

/// Audits Swift and Objective-C sources for risky raw background-task call sites.
///
/// ```swift
/// let report = try await Auditor().audit(paths: ["Sources"])
/// for finding in report.findings {
///     print(finding.path, finding.location.line, finding.ruleID, finding.message)
/// }
/// ```
///
/// Files are read and checked in parallel, one task per processor. Nothing in the input can make
/// it crash or hang: binary, non-UTF-8, oversized and unreadable files, unreadable folders and
/// symbolic-link loops are skipped and listed in ``AuditReport/skipped``.
public struct Auditor: Sendable {
    /// What to read and how to judge it.
    public var configuration: AuditConfiguration

    /// Creates an auditor.
    ///
    /// - Parameter configuration: What to read and how to judge it.
    public init(configuration: AuditConfiguration = AuditConfiguration()) {
        self.configuration = configuration
    }

    /// Audits files and folders.
    ///
    /// - Parameter paths: Files and folders; folders are searched recursively for `.swift`, `.m`,
    ///   `.mm` and `.h` files.
    /// - Returns: The findings and the skipped files.
    /// - Throws: ``AuditError`` when a path does not exist.
    public func audit(paths: [String]) async throws(AuditError) -> AuditReport {
        var walker = SourceFileWalker(configuration: configuration)
        let walk = try walker.walk(paths)
        return await audit(walk)
    }

    /// Audits files the walker found, in parallel, in three steps: the first reads every file that
    /// can call the APIs and collects the code base's shims and call structure
    /// (``ProjectVocabulary``); the second reads the other files that name a shim or a function that
    /// begins or ends a task (its callers: do they run on a queue?); the third checks every file
    /// read, knowing all of it.
    func audit(_ walk: SourceFileWalker.Result) async -> AuditReport {
        let files = walk.files
        var reading = configuration
        if reading.permittedTaskIdentifiers == nil {
            reading.permittedTaskIdentifiers = PermittedTaskIdentifiers.read(walk.propertyLists)
        }
        let configuration = reading
        // 1. Files that can call the APIs: what they declare (read in parallel, then let go).
        let first = await Self.inParallel(files.count) {
            index -> (read: FileAuditor.Read, vocabulary: ProjectVocabulary?, namesSystemCall: Bool?) in
            let read = Self.read(files[index], configuration: configuration, names: [])
            var namesSystemCall: Bool?
            if case .parsed(let syntax) = read { namesSystemCall = CallSiteFinder.namesSystemCall(syntax) }
            let collected = Self.collect(read, file: files[index], configuration: configuration)
            return (collected.read, collected.vocabulary, namesSystemCall)
        }
        var reads = first.map(\.read)
        var vocabulary = ProjectVocabulary()
        for found in first { if let declared = found.vocabulary { vocabulary.merge(declared) } }
        // 2. Files that name a shim or a function that begins or ends a task: what they add.
        let names = vocabulary.namesWorthReading
        if !names.isEmpty {
            let firstPass = reads
            let callers = await Self.inParallel(files.count) {
                index -> (read: FileAuditor.Read, vocabulary: ProjectVocabulary?)? in
                guard case .noCalls = firstPass[index] else { return nil }
                return Self.collect(
                    Self.read(files[index], configuration: configuration, names: names), file: files[index],
                    configuration: configuration)
            }
            for (index, found) in callers.enumerated() {
                guard let found, let declared = found.vocabulary else { continue }
                reads[index] = found.read
                vocabulary.merge(declared)
            }
        }
        vocabulary.resolveThreads()
        vocabulary.permittedTaskIdentifiers = configuration.permittedTaskIdentifiers
        // 3. Check every file read, knowing all of it.
        let known = vocabulary
        let allNames = names
        let secondPass = reads
        let outcomes = await Self.inParallel(files.count) { index -> FileAuditor.Outcome in
            switch secondPass[index] {
            case .skipped(let skipped):
                return .skipped(skipped)
            case .noCalls:
                return .audited(findings: [], suppressed: 0)
            case .parsed, .readAgain:
                guard case .parsed(let syntax) = Self.read(files[index], configuration: configuration, names: allNames)
                else { return .audited(findings: [], suppressed: 0) }
                return FileAuditor.audit(
                    syntax: syntax,
                    path: files[index].path,
                    pathBelowRoot: files[index].pathBelowRoot,
                    configuration: configuration,
                    vocabulary: known
                )
            }
        }
        var findings: [Finding] = []
        var suppressed = 0
        var inTestCode = 0
        var skipped = walk.skipped
        var scanned = 0
        for outcome in outcomes {
            switch outcome {
            case .audited(let fileFindings, let fileSuppressed, let fileInTestCode):
                findings += fileFindings
                suppressed += fileSuppressed
                inTestCode += fileInTestCode
                scanned += 1
            case .skipped(let file):
                skipped.append(file)
            }
        }
        var suspectedLeftOut = 0
        if configuration.engine == .codeModel {
            let candidates = secondPass.map { read -> Bool in
                if case .skipped = read { return false }
                return true
            }
            let model = await ModelPass.run(
                files: files, candidates: candidates, namesSystemCall: first.map(\.namesSystemCall),
                configuration: configuration)
            let patterns = Self.patternsOnly(findings, beside: model, level: configuration.level)
            findings = patterns.kept + model.findings
            findings.sort { ($0.path, $0.location, $0.ruleID) < ($1.path, $1.location, $1.ruleID) }
            suppressed += model.suppressed
            inTestCode += model.inTestCode
            suspectedLeftOut = model.suspectedLeftOut + patterns.leftOut
        }
        skipped.sort { $0.path < $1.path }
        var report = AuditReport(
            findings: findings, suppressedCount: suppressed, filesScanned: scanned, skipped: skipped)
        report.testCodeCount = inTestCode
        report.suspectedCount = suspectedLeftOut
        return report
    }

    /// Runs `work` for every index in `0..<count` on the audit's worker threads (``AuditWorkers``);
    /// results in index order.
    static func inParallel<Value: Sendable>(
        _ count: Int,
        _ work: @escaping @Sendable (Int) -> Value
    ) async -> [Value] {
        guard count > 0 else { return [] }
        let workers = max(1, min(AuditWorkers.shared.threadCount, count))
        let results = ParallelResults<Value>(count: count, workers: workers, work: work)
        return await withCheckedContinuation { continuation in
            for worker in 0..<workers {
                AuditWorkers.shared.submit {
                    for index in stride(from: worker, to: count, by: workers) { results.run(at: index) }
                    if let values = results.workerFinished() { continuation.resume(returning: values) }
                }
            }
        }
    }

    /// What a read file declares; the read is kept as `.readAgain` so its syntax can be freed. Test code left out
    /// of the report adds nothing: a mock's `sync()` called on a queue says nothing about the app's.
    private static func collect(
        _ read: FileAuditor.Read, file: SourceFileWalker.SourceFile, configuration: AuditConfiguration
    ) -> (read: FileAuditor.Read, vocabulary: ProjectVocabulary?) {
        guard case .parsed(let syntax) = read else { return (read, nil) }
        if !configuration.includesTestCode,
            syntax.importsTestFramework || TestCode.isTestPath(file.pathBelowRoot)
        {
            return (.readAgain, ProjectVocabulary())
        }
        return (.readAgain, ProjectVocabulary.collect(from: syntax))
    }

    /// Reads a file: its syntax when it may call the APIs or mentions one of `names`.
    private static func read(
        _ file: SourceFileWalker.SourceFile,
        configuration: AuditConfiguration,
        names: Set<String>
    ) -> FileAuditor.Read {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return .skipped(SkippedFile(path: file.path, reason: .unreadable, detail: "cannot read file"))
        }
        guard data.count <= configuration.maximumFileSize else {
            return .skipped(
                SkippedFile(
                    path: file.path,
                    reason: .tooLarge,
                    detail: "larger than \(configuration.maximumFileSize) bytes (\(data.count) bytes)"
                )
            )
        }
        return FileAuditor.syntax(bytes: [UInt8](data), path: file.path, language: file.language, names: names)
    }

    /// Audits source text held in memory, as if it were the file at `path`.
    ///
    /// The path decides the language (by extension) and whether `--allow` globs apply.
    ///
    /// - Parameters:
    ///   - source: The file's contents.
    ///   - path: Where the file would be, for example `Upload.swift` or `Legacy/Upload.m`.
    /// - Returns: The findings (after suppressions), in line order; empty for unsupported extensions.
    public func audit(source: String, path: String) -> [Finding] {
        guard let language = SourceLanguage(path: path) else { return [] }
        let outcome = FileAuditor.audit(
            bytes: Array(source.utf8),
            path: path,
            language: language,
            configuration: configuration
        )
        guard case .audited(var findings, _, _) = outcome else { return [] }
        if configuration.engine == .codeModel {
            let file = CodeModelReader.read(source, path: path, language: language)
            let found = AnalysisRules(index: ProjectIndex(files: [file])).findings(in: file)
            let model = ModelPass.report(
                found, in: file, source: source, path: path, language: language,
                pathBelowRoot: path, configuration: configuration
            )
            findings = Self.patternsOnly(findings, beside: model, level: configuration.level).kept + model.findings
            findings.sort { ($0.location, $0.ruleID) < ($1.location, $1.ruleID) }
        }
        return findings
    }

    /// The token rules' findings beside the code model's: BT001, BT002, BT010 and BT014 as they are; a defect rule's
    /// (a pattern, suspected: ``FileAuditor/patternRules``) only where no code-model finding of the same rule names
    /// its line in its chain, and only at ``AuditLevel/suspected`` (at the proven level they are counted as suspected
    /// left out).
    static func patternsOnly(
        _ tokens: [Finding], beside model: ModelPass.Result, level: AuditLevel
    ) -> (kept: [Finding], leftOut: Int) {
        var kept: [Finding] = []
        var leftOut = 0
        for finding in tokens {
            guard finding.certainty == .suspected else {
                kept.append(finding)
                continue
            }
            let key = ModelPass.Result.key(path: finding.path, ruleID: finding.ruleID)
            if model.chainLines[key]?.contains(finding.location.line) == true { continue }
            if level.reports(.suspected) { kept.append(finding) } else { leftOut += 1 }
        }
        return (kept, leftOut)
    }
}
