import BackgroundTaskAudit
import Foundation

/// `bgtask audit PATH…`: scans Swift and Objective-C sources for risky raw background-task calls.
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

    static func parse(_ arguments: [String]) -> Result<AuditCommand, UsageError> {
        var command = AuditCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format", "--fail-on", "--allow", "--max-file-size":
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
                default:
                    guard let bytes = Int(value), bytes > 0 else {
                        return .failure(UsageError(message: "--max-file-size needs a positive number of bytes"))
                    }
                    command.maximumFileSize = bytes
                }
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
        guard !command.paths.isEmpty else {
            return .failure(UsageError(message: "audit needs at least one PATH (a folder or a file)"))
        }
        return .success(command)
    }

    func run() async -> CommandResult {
        let configuration = AuditConfiguration(
            allowedWrapperPaths: allow.map(GlobPattern.init),
            maximumFileSize: maximumFileSize
        )
        let report: AuditReport
        do {
            report = try await Auditor(configuration: configuration).audit(paths: paths)
        } catch {
            return CommandResult(exitStatus: 2, standardError: "error: \(error.description)\n")
        }
        let output =
            switch format {
            case .text: report.text
            case .json: report.json()
            case .sarif: report.sarif()
            }
        let fails =
            switch failOn {
            case .never: false
            case .severity(let threshold): report.hasFindings(atOrAbove: threshold)
            }
        // A file or folder named on the command line that cannot be read is an I/O error (exit 2);
        // unreadable entries found while walking a folder are only skipped with a note.
        let named = Set(paths.map(Self.standardized))
        let unreadableNamed = report.skipped.filter { skipped in
            [.unreadable, .unreadableFolder, .notRegularFile].contains(skipped.reason)
                && named.contains(Self.standardized(skipped.path))
        }
        if !unreadableNamed.isEmpty {
            let errors = unreadableNamed.map { "error: cannot read \($0.path): \($0.detail)\n" }.joined()
            return CommandResult(exitStatus: 2, standardOutput: output, standardError: report.skipNotes + errors)
        }
        return CommandResult(exitStatus: fails ? 1 : 0, standardOutput: output, standardError: report.skipNotes)
    }

    /// A path as a comparable absolute path, without `.` or `..` parts or a trailing slash.
    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
