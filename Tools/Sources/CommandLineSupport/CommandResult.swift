/// What a `bgtask` or `bgtask-audit` invocation printed and how it exits.
public struct CommandResult: Equatable, Sendable {
    /// Exit status: 0 success, 2 usage error.
    public var exitStatus: Int32
    /// Text for standard output.
    public var standardOutput: String
    /// Text for standard error.
    public var standardError: String

    /// Creates a result.
    public init(exitStatus: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitStatus = exitStatus
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Success with `output`.
    public static func success(_ output: String) -> CommandResult {
        CommandResult(exitStatus: 0, standardOutput: output)
    }

    /// A usage error: the problem and where to find the usage, on standard error, exit status 2.
    ///
    /// - Parameters:
    ///   - problem: What is wrong with the command line.
    ///   - command: The subcommand whose usage to point at (`bgtask simulate --help`), if any.
    ///   - tool: The program's name.
    public static func usageError(_ problem: String, command: String? = nil, tool: String = "bgtask") -> CommandResult {
        let help = command.map { "\(tool) \($0) --help" } ?? "\(tool) --help"
        return CommandResult(exitStatus: 2, standardError: "error: \(problem)\nRun '\(help)' for usage.\n")
    }
}

/// A command-line mistake, explained.
public struct UsageError: Error {
    /// What is wrong, in one line.
    public let message: String

    /// Creates the error.
    public init(message: String) {
        self.message = message
    }
}
