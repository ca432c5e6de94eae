import AuditCodeModel
import Foundation

/// The code model's part of an audit (``AuditEngine/codeModel``): reads the files worth reading into the model, indexes
/// them, runs the defect rules (``AnalysisRules``) and turns their findings into the report's, with their chains in
/// the message, their certainty, the file's suppressions and the test-code rule applied.
enum ModelPass {
    /// What the pass found.
    struct Result: Sendable {
        var findings: [Finding] = []
        var suppressed = 0
        var inTestCode = 0
        /// Suspected findings left out at the proven level.
        var suspectedLeftOut = 0
    }

    /// Runs the pass over `files`, reading those `worthReading` marks: the files that call the APIs, and those that
    /// declare or call the project's functions that begin or end a task (the lexer found both).
    static func run(
        files: [SourceFileWalker.SourceFile], worthReading: [Bool], configuration: AuditConfiguration
    ) async -> Result {
        let codeFiles = await Auditor.inParallel(files.count) { index -> CodeFile? in
            guard worthReading[index] else { return nil }
            let file = files[index]
            guard let data = FileManager.default.contents(atPath: file.path),
                data.count <= configuration.maximumFileSize, let source = String(data: data, encoding: .utf8)
            else { return nil }
            if !configuration.includesTestCode,
                TestCode.isTestPath(file.pathBelowRoot) || TestCode.importsTestFramework([UInt8](data))
            {
                return nil
            }
            return CodeModelReader.read(source, path: file.path, language: file.language)
        }
        let rules = AnalysisRules(index: ProjectIndex(files: codeFiles.compactMap { $0 }))
        let perFile = await Auditor.inParallel(files.count) { index -> Result in
            guard let codeFile = codeFiles[index] else { return Result() }
            let found = rules.findings(in: codeFile)
            guard !found.isEmpty else { return Result() }
            let file = files[index]
            guard let data = FileManager.default.contents(atPath: file.path) else { return Result() }
            return report(
                found, in: codeFile, source: String(decoding: data, as: UTF8.self), path: file.path,
                language: file.language, pathBelowRoot: file.pathBelowRoot, configuration: configuration)
        }
        var result = Result()
        for part in perFile {
            result.findings += part.findings
            result.suppressed += part.suppressed
            result.inTestCode += part.inTestCode
            result.suspectedLeftOut += part.suspectedLeftOut
        }
        return result
    }

    /// One file's findings as the report shows them.
    static func report(
        _ found: [AnalysisFinding], in codeFile: CodeFile, source: String, path: String, language: SourceLanguage,
        pathBelowRoot: String, configuration: AuditConfiguration
    ) -> Result {
        guard !found.isEmpty else { return Result() }
        let syntax = SourceSyntax(bytes: Array(source.utf8), language: language)
        let suppressions = Suppressions(
            syntax.suppressions,
            tokenLines: syntax.suppressions.isEmpty ? [] : Set(syntax.tokens.map { Int($0.line) })
        )
        let inTestCode = syntax.importsTestFramework || TestCode.isTestPath(pathBelowRoot)
        var result = Result()
        for analysis in found {
            let certainty: FindingCertainty = analysis.certainty == .proven ? .proven : .suspected
            guard configuration.level.reports(certainty) else {
                result.suspectedLeftOut += 1
                continue
            }
            if suppressions.silences(analysis.ruleID, onLine: analysis.location.line) {
                result.suppressed += 1
                continue
            }
            var message = FindingMessage.text(for: analysis, language: language)
            if inTestCode { message = "In test code: " + message }
            result.findings.append(
                Finding(
                    ruleID: analysis.ruleID,
                    severity: AuditRule.withID(analysis.ruleID)?.severity ?? .warning,
                    path: path,
                    location: SourceLocation(line: analysis.location.line, column: analysis.location.column),
                    function: enclosingFunction(of: analysis.location.line, in: codeFile),
                    message: message,
                    certainty: certainty
                )
            )
        }
        if inTestCode, !configuration.includesTestCode {
            return Result(suppressed: result.suppressed, inTestCode: result.findings.count)
        }
        return result
    }

    /// The name of the innermost function, method or initializer around `line`.
    private static func enclosingFunction(of line: Int, in file: CodeFile) -> String? {
        file.bodies
            .filter { $0.kind != .closure && $0.location.contains(line: line) }
            .min { $0.location.endLine - $0.location.line < $1.location.endLine - $1.location.line }?
            .name
    }
}
