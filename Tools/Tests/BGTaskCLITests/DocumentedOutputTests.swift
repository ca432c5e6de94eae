import AuditCommandLine
import BGTaskCLI
import BackgroundTaskAudit
import BackgroundTaskDiagnostics
import Foundation
import Testing

/// Every command output the documentation shows is the command's real output: a block preceded by
/// `<!-- doc-output: bgtask ARGS -->` holds, after its `$ …` line, exactly what `bgtask ARGS` prints (run from the
/// package root). Run with `UPDATE_DOC_OUTPUTS=1` to rewrite the blocks from the commands.
struct DocumentedOutputTests {
    struct Shown: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var arguments: [String]
        var shown: String

        var testDescription: String { "\(document):\(line): bgtask \(arguments.joined(separator: " "))" }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()  // Tools/Tests/BGTaskCLITests/… → the repository

    static func documents() -> [String] {
        let folder = root.appendingPathComponent("Documentation")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/\($0)" }
    }

    /// The marked blocks: the command and the output shown after the `$ …` line.
    static func shownOutputs() -> [Shown] {
        documents().flatMap { document -> [Shown] in
            guard let text = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8) else {
                return []
            }
            let lines = text.components(separatedBy: "\n")
            var found: [Shown] = []
            for (index, line) in lines.enumerated() {
                guard line.hasPrefix("<!-- doc-output: bgtask "), line.hasSuffix(" -->"),
                    index + 1 < lines.count, lines[index + 1].hasPrefix("```")
                else { continue }
                let command = line.dropFirst("<!-- doc-output: bgtask ".count).dropLast(" -->".count)
                var body: [String] = []
                for next in lines[(index + 2)...] {
                    if next == "```" { break }
                    body.append(next)
                }
                if body.first?.hasPrefix("$ ") == true { body.removeFirst() }
                found.append(
                    Shown(
                        document: document, line: index + 1,
                        arguments: command.split(separator: " ").map(String.init), shown: body.joined(separator: "\n")))
            }
            return found
        }
    }

    /// The JSON blocks preceded by `<!-- doc-json: TYPE -->`: the type's real encoding (decoded, then encoded again as
    /// the package writes it), not a hand-written approximation.
    static func shownJSON() -> [(document: String, type: String, json: String)] {
        documents().flatMap { document -> [(document: String, type: String, json: String)] in
            guard let text = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8) else {
                return []
            }
            let lines = text.components(separatedBy: "\n")
            return lines.indices.compactMap { index in
                let line = lines[index]
                guard line.hasPrefix("<!-- doc-json: "), line.hasSuffix(" -->"), index + 1 < lines.count,
                    lines[index + 1] == "```json"
                else { return nil }
                let body = lines[(index + 2)...].prefix { $0 != "```" }
                return (
                    document, String(line.dropFirst("<!-- doc-json: ".count).dropLast(" -->".count)),
                    body.joined(separator: "\n")
                )
            }
        }
    }

    @Test func shownJSONIsTheRealEncoding() throws {
        let shown = Self.shownJSON()
        #expect(Set(shown.map(\.type)) == ["BackgroundTaskReport", "AuditBaseline"])
        for (document, type, json) in shown {
            let reencoded: String
            switch type {
            case "BackgroundTaskReport":
                let report = try JSONDecoder().decode(BackgroundTaskReport.self, from: Data(json.utf8))
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                reencoded = String(decoding: try encoder.encode(report), as: UTF8.self)
            case "AuditBaseline":
                reencoded = try AuditBaseline(json: Data(json.utf8), path: document).json()
            default:
                Issue.record("\(document): no check for \(type)")
                continue
            }
            #expect(reencoded.trimmingCharacters(in: .newlines) == json, "\(document): the \(type) shown")
        }
    }

    @Test func theDocumentationShowsCommandOutputs() {
        #expect(Self.shownOutputs().count >= 3)
    }

    @Test(arguments: shownOutputs())
    func aShownOutputIsWhatTheCommandPrints(_ shown: Shown) async throws {
        // The commands are shown as run from the package root, where `swift test` runs; from elsewhere the paths
        // are made absolute, which a baseline's recorded paths cannot match.
        let atRoot = FileManager.default.currentDirectoryPath == Self.root.path
        if !atRoot, shown.arguments.contains("--baseline") { return }
        let arguments = shown.arguments.map { argument in
            !atRoot && argument.contains("/") && !argument.hasPrefix("-")
                ? Self.root.appendingPathComponent(argument).path : argument
        }
        // `bgtask audit …` is `bgtask-audit …`, which `bgtask` runs as a process of its own.
        let result =
            arguments.first == "audit"
            ? await BGTaskAudit.run(Array(arguments.dropFirst())) : await BGTask.run(arguments)
        // What a terminal shows: standard output, then standard error.
        let printed = (result.standardOutput + result.standardError)
            .replacingOccurrences(of: Self.root.path + "/", with: "")
            .trimmingCharacters(in: .newlines)
        if ProcessInfo.processInfo.environment["UPDATE_DOC_OUTPUTS"] == "1", printed != shown.shown {
            let url = Self.root.appendingPathComponent(shown.document)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: shown.shown, with: printed).write(
                to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(printed == shown.shown, "\(shown.document):\(shown.line) shows another output than the command prints")
    }
}
