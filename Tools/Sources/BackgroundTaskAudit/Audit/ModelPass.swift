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
        /// Per file and rule (`path`, a NUL, the rule's id), the lines every finding's chain names in that file, shown
        /// or not: a token rule's finding on one of them is the same defect.
        var chainLines: [String: Set<Int>] = [:]

        /// The key of ``chainLines``.
        static func key(path: String, ruleID: String) -> String { path + "\u{0}" + ruleID }
    }

    /// Runs the pass over `files` (the `candidates` among them: those not skipped; `namesSystemCall`: whether the token
    /// pass found a system call's name in a file's code, `nil` where it did not lex the file). It reads, in rounds,
    /// only what the rules can use: first every file that names a system call (``CallSiteFinder/mayMakeSystemCall(_:)``
    /// where the token pass did not say), then the callers of a begin shim or of a function that begins a task, then
    /// the files that declare a function, method or type those files use (a helper that ends the task, a superclass, an extension: ``DeclaredNames``), then the
    /// files that declare what those use, up to ``rounds`` rounds.
    static func run(
        files: [SourceFileWalker.SourceFile], candidates: [Bool], namesSystemCall: [Bool?],
        configuration: AuditConfiguration
    ) async -> Result {
        var codeFiles = await Auditor.inParallel(files.count) { index -> CodeFile? in
            guard candidates[index], namesSystemCall[index] != false,
                let (source, bytes) = load(files[index], configuration: configuration),
                namesSystemCall[index] ?? CallSiteFinder.mayMakeSystemCall(bytes)
            else { return nil }
            return read(source, bytes: bytes, file: files[index], configuration: configuration)
        }
        // The files that call one of the project's begin shims (their callers own the tasks), or a function or method
        // that begins a task (their callers tell which thread it begins on).
        let shims = TaskShims(bodies: codeFiles.lazy.compactMap { $0 }.flatMap(\.bodies))
        let callees = shims.beginNames.union(beginningFunctions(codeFiles))
        if !callees.isEmpty {
            let known = codeFiles
            let callers = await Auditor.inParallel(files.count) { index -> CodeFile? in
                guard candidates[index], known[index] == nil,
                    let (source, bytes) = load(files[index], configuration: configuration),
                    DeclaredNames.mentionsAny(of: callees, in: bytes)
                else { return nil }
                return read(source, bytes: bytes, file: files[index], configuration: configuration)
            }
            for (index, file) in callers.enumerated() where file != nil { codeFiles[index] = file }
        }
        var wanted = usedNames(codeFiles.compactMap { $0 }, wanted: nil, shims: shims)
        var asked = wanted
        for _ in 0..<rounds where !wanted.isEmpty {
            let known = codeFiles
            let names = wanted
            let next = await Auditor.inParallel(files.count) { index -> CodeFile? in
                guard candidates[index], known[index] == nil,
                    let (source, bytes) = load(files[index], configuration: configuration),
                    DeclaredNames.declaresAny(of: names, in: bytes)
                else { return nil }
                return read(source, bytes: bytes, file: files[index], configuration: configuration)
            }
            let added = next.compactMap { $0 }
            for (index, file) in next.enumerated() where file != nil { codeFiles[index] = file }
            wanted = usedNames(added, wanted: names, shims: shims).subtracting(asked)
            asked.formUnion(wanted)
        }
        let rules = AnalysisRules(index: ProjectIndex(files: codeFiles.compactMap { $0 }))
        let parsed = codeFiles
        let foundPerFile = await Auditor.inParallel(files.count) { index -> [AnalysisFinding] in
            parsed[index].map(rules.findings(in:)) ?? []
        }
        // A finding is reported in the file it points at, which may not be the file whose begin it starts from (a
        // shim's caller, say).
        var fileIndex: [String: Int] = [:]
        for (index, codeFile) in parsed.enumerated() { if let codeFile { fileIndex[codeFile.path] = index } }
        var byFile: [Int: [AnalysisFinding]] = [:]
        for (index, found) in foundPerFile.enumerated() {
            for finding in found { byFile[fileIndex[finding.location.path] ?? index, default: []].append(finding) }
        }
        let grouped = byFile
        let perFile = await Auditor.inParallel(files.count) { index -> Result in
            guard let codeFile = parsed[index], let found = grouped[index] else { return Result() }
            let file = files[index]
            guard let data = FileManager.default.contents(atPath: file.path) else { return Result() }
            return report(
                found, in: codeFile, source: String(decoding: data, as: UTF8.self), path: file.path,
                language: file.language, pathBelowRoot: file.pathBelowRoot, configuration: configuration)
        }
        var result = Result()
        if !configuration.includesTestCode {
            result.inTestCode = await countInTestCode(
                files: files, candidates: candidates, read: parsed, configuration: configuration)
        }
        for part in perFile {
            result.findings += part.findings
            result.suppressed += part.suppressed
            result.inTestCode += part.inTestCode
            result.suspectedLeftOut += part.suspectedLeftOut
            result.chainLines.merge(part.chainLines) { $0.union($1) }
        }
        return result
    }

    /// How many findings the files of test code that call the APIs would have, audited with the project's other
    /// files (they are left out of the index the report's findings come from: a test double is not the app's code).
    private static func countInTestCode(
        files: [SourceFileWalker.SourceFile], candidates: [Bool], read: [CodeFile?], configuration: AuditConfiguration
    ) async -> Int {
        let tests = await Auditor.inParallel(files.count) { index -> CodeFile? in
            let file = files[index]
            guard candidates[index], read[index] == nil, let (source, bytes) = load(file, configuration: configuration),
                CallSiteFinder.mayMakeSystemCall(bytes),
                TestCode.isTestPath(file.pathBelowRoot) || TestCode.importsTestFramework(bytes)
            else { return nil }
            return CodeModelReader.read(source, path: file.path, language: file.language)
        }
        guard tests.contains(where: { $0 != nil }) else { return 0 }
        let rules = AnalysisRules(index: ProjectIndex(files: read.compactMap { $0 } + tests.compactMap { $0 }))
        let counts = await Auditor.inParallel(files.count) { index -> Int in
            guard let codeFile = tests[index], let data = FileManager.default.contents(atPath: files[index].path)
            else { return 0 }
            let found = rules.findings(in: codeFile).filter { $0.location.path == codeFile.path }
            return report(
                found, in: codeFile, source: String(decoding: data, as: UTF8.self), path: files[index].path,
                language: files[index].language, pathBelowRoot: files[index].pathBelowRoot, configuration: configuration
            ).inTestCode
        }
        return counts.reduce(0, +)
    }

    /// The names of the functions, methods and initializers that begin a task or an expiring activity themselves.
    private static func beginningFunctions(_ files: [CodeFile?]) -> Set<String> {
        var names: Set<String> = []
        for case let file? in files {
            for body in file.bodies where body.kind != .closure {
                guard let name = body.name,
                    body.calls.contains(where: { call in
                        switch SystemCall(call) {
                        case .begin, .expiringActivity: true
                        default: false
                        }
                    })
                else { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// How many rounds of declarations are read after the files that name the APIs: a helper's helper, a superclass's
    /// superclass.
    static let rounds = 3

    /// A file's text and bytes, or `nil` when it cannot be read, is too large or is not UTF-8.
    private static func load(
        _ file: SourceFileWalker.SourceFile, configuration: AuditConfiguration
    ) -> (String, [UInt8])? {
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= configuration.maximumFileSize,
            let source = String(data: data, encoding: .utf8)
        else { return nil }
        return (source, [UInt8](data))
    }

    /// The file in the code model, or `nil` for test code when test code is left out.
    private static func read(
        _ source: String, bytes: [UInt8], file: SourceFileWalker.SourceFile, configuration: AuditConfiguration
    ) -> CodeFile? {
        if !configuration.includesTestCode,
            TestCode.isTestPath(file.pathBelowRoot) || TestCode.importsTestFramework(bytes)
        {
            return nil
        }
        return CodeModelReader.read(source, path: file.path, language: file.language)
    }

    /// The names that the rules may follow from `files` into another file: what the bodies that matter call, the
    /// types their calls' receivers start from, the types they are declared in, and what those inherit from. The
    /// bodies that matter are, in the files that name the APIs or call a begin shim (`wanted` `nil`), those that make
    /// a system call or call a shim (``TaskShims``) and every body of their types; in a later round, the declarations
    /// of a `wanted` name and every body of a `wanted` type. (A file's other code, which no rule reaches, adds nothing
    /// to read.)
    private static func usedNames(_ files: [CodeFile], wanted: Set<String>?, shims: TaskShims) -> Set<String> {
        var names: Set<String> = []
        // A body that calls a begin shim begins a task as much as one that calls the system.
        func begins(_ body: CodeBody) -> Bool {
            body.makesSystemCall || (!shims.beginNames.isEmpty && body.calls.contains(where: shims.isBegin))
        }
        for file in files {
            let types =
                wanted.map { Set(file.types.map(\.name)).intersection($0) }
                ?? Set(file.bodies.filter(begins).compactMap(\.typeName))
            for body in file.bodies {
                let matters =
                    if let type = body.typeName, types.contains(type) {
                        true
                    } else if let wanted {
                        body.name.map(wanted.contains) ?? false
                    } else {
                        begins(body)
                    }
                guard matters else { continue }
                for call in body.calls {
                    names.insert(call.name)
                    // `Cache.callManager.finish()`: the receiver's type is resolved through `Cache`'s declaration.
                    if let root = call.receiver?.path?.first, root.first?.isUppercase == true { names.insert(root) }
                }
                if let type = body.typeName { names.insert(type) }
            }
            for type in file.types where types.contains(type.name) {
                names.insert(type.name)
                names.formUnion(type.inherits)
            }
        }
        return names
    }

    /// One file's findings as the report shows them.
    static func report(
        _ found: [AnalysisFinding], in codeFile: CodeFile, source: String, path: String, language: SourceLanguage,
        pathBelowRoot: String, configuration: AuditConfiguration
    ) -> Result {
        guard !found.isEmpty else { return Result() }
        let bytes = Array(source.utf8)
        // The lexer's comments only where a suppression can be: most files have none.
        var suppressions = Suppressions([], tokenLines: [])
        if bytes.containsBytes(SuppressionMarker.bytes) {
            let syntax = SourceSyntax(bytes: bytes, language: language)
            suppressions = Suppressions(syntax.suppressions, tokenLines: Set(syntax.tokens.map { Int($0.line) }))
        }
        let inTestCode = TestCode.importsTestFramework(bytes) || TestCode.isTestPath(pathBelowRoot)
        var result = Result()
        for analysis in found {
            let lines =
                [analysis.location.line] + analysis.chain.filter { $0.location.path == path }.map(\.location.line)
            result.chainLines[Result.key(path: path, ruleID: analysis.ruleID), default: []].formUnion(lines)
            let certainty: FindingCertainty = analysis.certainty == .proven ? .proven : .suspected
            if suppressions.silences(analysis.ruleID, onLine: analysis.location.line) {
                if configuration.level.reports(certainty) { result.suppressed += 1 }
                continue
            }
            guard configuration.level.reports(certainty) else {
                result.suspectedLeftOut += 1
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
            return Result(
                suppressed: result.suppressed, inTestCode: result.findings.count, chainLines: result.chainLines)
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
