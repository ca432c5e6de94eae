/// The `bgtask` command line: parses the arguments and runs a subcommand.
public enum BGTask {
    /// The package release this `bgtask` belongs to, printed by `bgtask --version`: the latest release in
    /// `CHANGELOG.md`, followed by `+unreleased` once its `[Unreleased]` section lists changes (a test checks both).
    public static let version = "3.0.0+unreleased"

    /// The usage text printed by `bgtask --help` and after a usage error.
    public static let usage = """
        USAGE: bgtask <command> [options]

        COMMANDS:
          simulate    Run the catalog of background-task bug patterns on the iOS-policy simulator
                      and print how each variant ends.
          audit       Scan Swift and Objective-C sources (PATH...) for risky raw background-task
                      calls: bgtask audit PATH... (rules BT001-BT010: bgtask audit --explain BT00n).
          report      Print a saved diagnostics report, flight-recorder snapshot, list of probable
                      terminations or MetricKit payload (FILE, JSON) as a table of the leaking
                      call sites and callers.

        \(simulateOptions)
        \(auditOptions)
        \(reportOptions)
        OTHER:
          -h, --help            Show this text; `bgtask <command> --help` shows that command's.
          --version             Print the release this bgtask belongs to.

        """

    /// `bgtask simulate --help`.
    public static let simulateUsage = """
        USAGE: bgtask simulate [options]

        Runs the catalog of background-task bug patterns on the iOS-policy simulator and prints how
        each variant ends: the raw UIKit pattern (naive) and each of this package's faces.

        \(simulateOptions)
        """

    /// `bgtask audit --help`.
    public static let auditUsage = """
        USAGE: bgtask audit [options] PATH...
               bgtask audit --explain BTnnn

        Scans Swift and Objective-C sources for risky raw background-task calls and for this
        package's tasks thrown away at once (rules BT001-BT010: bgtask audit --explain BT00n).

        \(auditOptions)
        """

    /// `bgtask report --help`.
    public static let reportUsage = """
        USAGE: bgtask report [options] FILE

        Prints a saved background-task file as a table of the leaking call sites and callers:
        a report (`DiagnosingBackend.report()`, `BackgroundTaskTracer.report()`, a manager's
        report), a flight-recorder snapshot or its list of probable terminations, or a MetricKit
        diagnostic or metric payload (`jsonRepresentation()`). FILE `-` reads standard input.

        \(reportOptions)
        """

    private static let reportOptions = """
        REPORT OPTIONS:
          --format text|json    Output format (default: text).
          --timeline FILE       Also draw the report's or snapshot's timeline (the tasks held, how long,
                                whether their expiry had started) as an SVG picture; a FILE ending in
                                .txt gets the plain-text chart, and `-` prints it after the table.
          Exit status: 0 printed, 2 usage error or a file it cannot read or write.

        """

    private static let simulateOptions = """
        SIMULATE OPTIONS:
          --format table|json   Output format (default: table).
          --scenario ID         Run only this scenario (repeatable; --list shows the ids).
          --variant NAME        Run only this variant (repeatable).
          --list                List the scenarios and their variants instead of running them.
          --explain ID          Run scenario ID's naive flow through a DiagnosingBackend and print
                                what the diagnostics show: iOS's console messages, events, the
                                report per call site, and the line to fix (with --format json: the
                                report as JSON).
          --timeline FILE       Also draw each run's timeline (one lane per assertion, the app's
                                state, the background time, the handlers, the termination and its
                                code) into FILE as an SVG picture, one panel per variant on one time
                                scale; with --explain, the explained run. A FILE ending in .txt gets
                                plain-text charts, and `-` prints them.
          --timelines DIR       Draw one SVG per scenario into DIR (made if missing), its variants
                                stacked: DIR/SCENARIO.svg.
          -h, --help            Show this text.

        """

    private static let auditOptions = """
        AUDIT OPTIONS:
          --format text|json|sarif
                                Output format (default: text, one `path:line:column: severity:
                                [BTnnn] message` line per finding and a summary line; sarif: a
                                SARIF 2.1.0 log for code-scanning services).
          --fail-on SEVERITY    Exit with status 1 when a finding is at or above SEVERITY:
                                note, warning (default), error, or never.
          --as-warnings         Print error findings as warnings, the rule's severity in the
                                message (what the build-tool plugin does: a build lists them
                                and never counts them as errors).
          --include-tests       Report findings in test code too (test folders, test and mock
                                files, files importing XCTest, Testing, Quick, OCMock ...),
                                marked "In test code"; by default they are counted, not shown.
          --allow GLOB          A wrapper path where raw begin calls are expected (repeatable;
                                `*`, `**`, `?`, `[abc]`); BT001 is not reported there.
          --max-file-size N     Skip files larger than N bytes (default: 8388608).
          --baseline FILE       Report, and fail on, only findings that FILE does not hold;
                                the others are counted as baselined in the summary line.
          --write-baseline FILE Write today's findings to FILE (JSON) as a baseline, exit 0.
          --explain ID          Print rule ID's explanation (what it finds, what happens on a
                                device, before and after, blind spots) and exit.
          -h, --help            Show this text.
          Suppress a finding with `// bgtask:ignore BT00x` on its line or the line above.
          Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or I/O error.
          Skipped files (binary, not UTF-8, too large, unreadable, link loops) are noted
          on standard error.

        """

    /// Runs `bgtask` with `arguments` (without the program name).
    ///
    /// - Parameter arguments: The command-line arguments after `bgtask`.
    /// - Returns: What to print and the exit status.
    @MainActor
    public static func run(_ arguments: [String]) async -> CommandResult {
        guard let command = arguments.first else {
            return CommandResult(exitStatus: 2, standardError: "error: missing command\n\n\(usage)")
        }
        switch command {
        case "-h", "--help", "help":
            return .success(usage)
        case "--version", "version":
            return .success("bgtask \(version) (BackgroundTaskKit)\n")
        case "simulate":
            let options = Array(arguments.dropFirst())
            if options.contains(where: isHelp) { return .success(simulateUsage) }
            switch SimulateCommand.parse(options) {
            case .success(let simulate): return await simulate.run()
            case .failure(let error): return .usageError(error.message, command: "simulate")
            }
        case "audit":
            let options = Array(arguments.dropFirst())
            if options.contains(where: isHelp) { return .success(auditUsage) }
            switch AuditCommand.parse(options) {
            case .success(let audit): return await audit.run()
            case .failure(let error): return .usageError(error.message, command: "audit")
            }
        case "report":
            let options = Array(arguments.dropFirst())
            if options.contains(where: isHelp) { return .success(reportUsage) }
            switch ReportCommand.parse(options) {
            case .success(let report): return report.run()
            case .failure(let error): return .usageError(error.message, command: "report")
            }
        default:
            return .usageError("unknown command '\(command)'")
        }
    }
}

/// `-h` or `--help`.
private func isHelp(_ argument: String) -> Bool {
    argument == "-h" || argument == "--help"
}

/// A command-line mistake, explained.
struct UsageError: Error {
    let message: String
}
