/// What a `bgtask` invocation printed and how it exits.
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
    static func success(_ output: String) -> CommandResult {
        CommandResult(exitStatus: 0, standardOutput: output)
    }

    /// A usage error: the problem and where to find the usage, on standard error, exit status 2.
    static func usageError(_ problem: String, command: String? = nil) -> CommandResult {
        let help = command.map { "bgtask \($0) --help" } ?? "bgtask --help"
        return CommandResult(exitStatus: 2, standardError: "error: \(problem)\nRun '\(help)' for usage.\n")
    }
}
