import CommandLineSupport

/// The `bgtask` command line: parses the arguments and runs a subcommand (`audit` runs `bgtask-audit`).
public enum BGTask {
    /// The package release this `bgtask` belongs to, printed by `bgtask --version` (``ToolRelease/version``).
    public static let version = ToolRelease.version

    /// The usage text printed by `bgtask --help` and after a usage error.
    public static let usage = """
        USAGE: bgtask <command> [options]

        COMMANDS:
          simulate    Run the catalog of background-task bug patterns on the iOS-policy simulator
                      and print how each variant ends.
          audit       Scan Swift and Objective-C sources (PATH...) for risky raw background-task
                      calls: runs the audit's own tool, bgtask-audit, with the same options
                      (bgtask-audit --help lists them; bgtask audit --explain BTnnn explains a rule).
          report      Print a saved diagnostics report, flight-recorder snapshot, list of probable
                      terminations or MetricKit payload (FILE, JSON) as a table of the leaking
                      call sites and callers.

        \(simulateOptions)
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
            return AuditForwarding.run(Array(arguments.dropFirst()))
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
