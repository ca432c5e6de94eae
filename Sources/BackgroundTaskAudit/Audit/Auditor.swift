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

    /// Audits files the walker found, in parallel.
    func audit(_ walk: SourceFileWalker.Result) async -> AuditReport {
        let files = walk.files
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count))
        let configuration = configuration
        let outcomes = await withTaskGroup(of: [(Int, FileAuditor.Outcome)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var outcomes: [(Int, FileAuditor.Outcome)] = []
                    for index in stride(from: worker, to: files.count, by: workers) {
                        outcomes.append((index, Self.auditFile(files[index], configuration: configuration)))
                    }
                    return outcomes
                }
            }
            var all: [(Int, FileAuditor.Outcome)] = []
            all.reserveCapacity(files.count)
            for await outcomes in group { all += outcomes }
            return all.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var findings: [Finding] = []
        var suppressed = 0
        var skipped = walk.skipped
        var scanned = 0
        for outcome in outcomes {
            switch outcome {
            case .audited(let fileFindings, let fileSuppressed):
                findings += fileFindings
                suppressed += fileSuppressed
                scanned += 1
            case .skipped(let file):
                skipped.append(file)
            }
        }
        skipped.sort { $0.path < $1.path }
        return AuditReport(findings: findings, suppressedCount: suppressed, filesScanned: scanned, skipped: skipped)
    }

    private static func auditFile(_ file: SourceFileWalker.SourceFile, configuration: AuditConfiguration)
        -> FileAuditor.Outcome
    {
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
        return FileAuditor.audit(
            bytes: [UInt8](data),
            path: file.path,
            language: file.language,
            configuration: configuration
        )
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
        if case .audited(let findings, _) = outcome { return findings }
        return []
    }
}
