/// The `bgtask` command line: parses the arguments and runs a subcommand.
public enum BGTask {
    /// The usage text printed by `bgtask --help` and after a usage error.
    public static let usage = """
        USAGE: bgtask <command> [options]

        COMMANDS:
          simulate    Run the catalog of background-task bug patterns on the iOS-policy simulator
                      and print how each variant ends.

        SIMULATE OPTIONS:
          --format table|json   Output format (default: table).
          --scenario ID         Run only this scenario (repeatable).
          --variant NAME        Run only this variant (repeatable).
          --list                List the scenarios and their variants instead of running them.
          --explain ID          Run scenario ID's naive flow through a DiagnosingBackend and print
                                what the diagnostics show: events, the report per call site, and
                                the line to fix (with --format json: the report as JSON).

        OTHER:
          -h, --help            Show this text.

        """

    /// Runs `bgtask` with `arguments` (without the program name).
    ///
    /// - Parameter arguments: The command-line arguments after `bgtask`.
    /// - Returns: What to print and the exit status.
    @MainActor
    public static func run(_ arguments: [String]) async -> CommandResult {
        guard let command = arguments.first else {
            return .usageError("missing command")
        }
        switch command {
        case "-h", "--help", "help":
            return .success(usage)
        case "simulate":
            switch SimulateCommand.parse(Array(arguments.dropFirst())) {
            case .success(let simulate): return await simulate.run()
            case .failure(let error): return .usageError(error.message)
            }
        default:
            return .usageError("unknown command '\(command)'")
        }
    }
}

/// A command-line mistake, explained.
struct UsageError: Error {
    let message: String
}
