import BackgroundTaskAudit
import CommandLineSupport
import Foundation

/// `bgtask-audit PATH…`: scans Swift and Objective-C sources for risky raw background-task calls;
/// `bgtask-audit --explain BTnnn`: prints a rule's long explanation.
struct AuditCommand {
    enum Format: String {
        case text, json, sarif
    }

    /// The lowest severity that fails the run, or `never`.
    enum FailureThreshold: Equatable {
        case severity(Severity)
        case never

        init?(_ text: String) {
            if text == "never" {
                self = .never
            } else if let severity = Severity(rawValue: text) {
                self = .severity(severity)
            } else {
                return nil
            }
        }
    }

    var paths: [String] = []
    var format = Format.text
    var failOn = FailureThreshold.severity(.warning)
    var allow: [String] = []
    var maximumFileSize = AuditConfiguration().maximumFileSize
    /// `--explain ID`: print this rule's explanation instead of auditing.
    var explain: AuditRule?
    /// `--baseline FILE`: report only findings this baseline file does not hold.
    var baselinePath: String?
    /// `--write-baseline FILE`: write today's findings to this file instead of reporting them.
    var writeBaselinePath: String?
    /// `--as-warnings`: text findings are printed as warnings (the rule's severity in the message), so a build that
    /// shows them never counts them as errors (the build-tool plugin).
    var asWarnings = false
    var includesTestCode = false
    /// `--level proven|suspected`: which findings to report.
    var level = AuditLevel.proven
    /// `--engine model|tokens`: which rules decide the defect findings.
    var engine = AuditConfiguration().engine

    static func parse(_ arguments: [String]) -> Result<AuditCommand, UsageError> {
        var command = AuditCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format", "--fail-on", "--allow", "--max-file-size", "--explain", "--baseline", "--write-baseline",
                "--level", "--engine":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    return .failure(UsageError(message: "\(argument) needs a value"))
                }
                switch argument {
                case "--format":
                    guard let format = Format(rawValue: value) else {
                        return .failure(UsageError(message: "unknown format '\(value)' (use text, json or sarif)"))
                    }
                    command.format = format
                case "--fail-on":
                    guard let threshold = FailureThreshold(value) else {
                        return .failure(
                            UsageError(message: "unknown severity '\(value)' (use note, warning, error or never)")
                        )
                    }
                    command.failOn = threshold
                case "--allow":
                    command.allow.append(value)
                case "--explain":
                    guard let rule = AuditRule.withID(value) else {
                        let ids = AuditRule.all.map(\.id).joined(separator: ", ")
                        return .failure(UsageError(message: "unknown rule '\(value)' (use one of \(ids))"))
                    }
                    command.explain = rule
                case "--level":
                    guard let level = AuditLevel(rawValue: value) else {
                        return .failure(UsageError(message: "unknown level '\(value)' (use proven or suspected)"))
                    }
                    command.level = level
                case "--engine":
                    guard let engine = AuditEngine(rawValue: value) else {
                        return .failure(UsageError(message: "unknown engine '\(value)' (use model or tokens)"))
                    }
                    command.engine = engine
                case "--baseline":
                    command.baselinePath = value
                case "--write-baseline":
                    command.writeBaselinePath = value
                default:
                    guard let bytes = Int(value), bytes > 0 else {
                        return .failure(UsageError(message: "--max-file-size needs a positive number of bytes"))
                    }
                    command.maximumFileSize = bytes
                }
            case "--as-warnings":
                command.asWarnings = true
            case "--include-tests":
                command.includesTestCode = true
            case "--":
                command.paths += remaining
                remaining = []
            default:
                guard !argument.hasPrefix("-") || argument == "-" else {
                    return .failure(UsageError(message: "unknown option '\(argument)' for audit"))
                }
                command.paths.append(argument)
            }
        }
        if command.explain != nil {
            guard command.paths.isEmpty else {
                return .failure(UsageError(message: "--explain takes a rule id and no PATH"))
            }
            return .success(command)
        }
        guard command.baselinePath == nil || command.writeBaselinePath == nil else {
            return .failure(UsageError(message: "use either --baseline or --write-baseline, not both"))
        }
        guard !command.paths.isEmpty else {
            return .failure(UsageError(message: "audit needs at least one PATH (a folder or a file)"))
        }
        return .success(command)
    }

    func run() async -> CommandResult {
        if let explain { return .success(explain.explanation) }
        // Read the baseline first: a bad one is an error before any time is spent auditing.
        var baseline: AuditBaseline?
        if let baselinePath {
            do {
                baseline = try AuditBaseline(contentsOf: baselinePath)
            } catch {
                return CommandResult(exitStatus: 2, standardError: "error: \(error.description)\n")
            }
        }
        var configuration = AuditConfiguration(
            allowedWrapperPaths: allow.map(GlobPattern.init),
            maximumFileSize: maximumFileSize,
            includesTestCode: includesTestCode
        )
        configuration.level = level
        configuration.engine = engine
        var report: AuditReport
        do {
            report = try await Auditor(configuration: configuration).audit(paths: paths)
        } catch {
            return CommandResult(exitStatus: 2, standardError: "error: \(error.description)\n")
        }
        if report.filesScanned == 0, report.skipped.isEmpty {
            // Nothing at all to audit is almost always a mistyped path in CI, where an empty run would pass any gate.
            return CommandResult(
                exitStatus: 2,
                standardError: "error: no Swift or Objective-C sources under \(paths.joined(separator: ", ")): "
                    + "check the path (an audit of nothing would pass)\n")
        }
        if let writeBaselinePath {
            return writeBaseline(report, to: writeBaselinePath)
        }
        if let baseline {
            report = report.applying(baseline)
        }
        let output =
            switch format {
            case .text: asWarnings ? Self.asWarnings(report.text) : report.text
            case .json: report.json()
            case .sarif: report.sarif()
            }
        let fails =
            switch failOn {
            case .never: false
            case .severity(let threshold): report.hasFindings(atOrAbove: threshold)
            }
        let notes = report.skipNotes + report.unmatchedBaselineNote
        if let errors = unreadableNamedPaths(report) {
            return CommandResult(exitStatus: 2, standardOutput: output, standardError: notes + errors)
        }
        return CommandResult(exitStatus: fails ? 1 : 0, standardOutput: output, standardError: notes)
    }

    /// `--write-baseline FILE`: today's findings to FILE, exit 0; nothing is written when a path
    /// named on the command line could not be read, since the baseline would be incomplete.
    private func writeBaseline(_ report: AuditReport, to path: String) -> CommandResult {
        if let errors = unreadableNamedPaths(report) {
            return CommandResult(exitStatus: 2, standardError: report.skipNotes + errors)
        }
        do {
            try AuditBaseline(report: report).write(to: path)
        } catch {
            return CommandResult(exitStatus: 2, standardError: report.skipNotes + "error: \(error.description)\n")
        }
        let findings = "\(report.findings.count) finding\(report.findings.count == 1 ? "" : "s")"
        let files = "\(report.filesScanned) file\(report.filesScanned == 1 ? "" : "s")"
        return CommandResult(
            exitStatus: 0,
            standardOutput: "Wrote a baseline of \(findings) in \(files) to \(path).\n",
            standardError: report.skipNotes
        )
    }

    /// `error: cannot read PATH: …` lines for files and folders named on the command line that
    /// could not be read (an I/O error, exit 2), or `nil`; unreadable entries found while walking a
    /// folder are only skipped with a note.
    private func unreadableNamedPaths(_ report: AuditReport) -> String? {
        let named = Set(paths.map(Self.standardized))
        let unreadableNamed = report.skipped.filter { skipped in
            [.unreadable, .unreadableFolder, .notRegularFile].contains(skipped.reason)
                && named.contains(Self.standardized(skipped.path))
        }
        guard !unreadableNamed.isEmpty else { return nil }
        return unreadableNamed.map { "error: cannot read \($0.path): \($0.detail)\n" }.joined()
    }

    /// A path as a comparable absolute path, without `.` or `..` parts or a trailing slash.
    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `path:line:column: error: [BTnnn] message` becomes `path:line:column: warning: [BTnnn] (error) message`.
    static func asWarnings(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let range = line.range(of: ": error: [") else { return String(line) }
            let rest = line[range.upperBound...]
            guard let close = rest.firstIndex(of: "]") else { return String(line) }
            return line[..<range.lowerBound] + ": warning: [" + rest[...close] + " (error)"
                + rest[rest.index(after: close)...]
        }.joined(separator: "\n")
    }
}
