import CommandLineSupport

/// The audit's own command line, `bgtask-audit` (`bgtask audit` runs it): scans Swift and Objective-C sources for
/// risky raw background-task calls, or explains a rule.
public enum BGTaskAudit {
    /// `bgtask-audit --help`.
    public static let usage = """
        USAGE: bgtask-audit [options] PATH...
               bgtask-audit --explain BTnnn
               (or the same after `bgtask audit`)

        Scans Swift and Objective-C sources for risky raw background-task calls and for this
        package's tasks thrown away at once (rules BT001-BT014: bgtask-audit --explain BTnnn).

        \(options)
        """

    private static let options = """
        OPTIONS:
          --format text|json|sarif
                                Output format (default: text, one `path:line:column: severity:
                                [BTnnn] message` line per finding and a summary line; sarif: a
                                SARIF 2.1.0 log for code-scanning services).
          --fail-on SEVERITY    Exit with status 1 when a finding is at or above SEVERITY:
                                note, warning (default), error, or never. A
                                suspected finding counts as a note.
          --as-warnings         Print error findings as warnings, the rule's severity in the
                                message (what the build-tool plugin does: a build lists them
                                and never counts them as errors).
          --include-tests       Report findings in test code too (test folders, test and mock
                                files, files importing XCTest, Testing, Quick, OCMock ...),
                                marked "In test code"; by default they are counted, not shown.
          --engine model|tokens Which rules decide the defect findings (BT003-BT009,
                                BT011-BT013): the code model (`model`, the default: a
                                parser, a project-wide index, a chain of evidence per
                                finding) or the token rules of 2.x (`tokens`).
          --level proven|suspected
                                With --engine model: report only proven findings (every
                                link of the chain shown, the default), or suspected ones
                                too, marked "Suspected:" (a link rests on code the audit
                                could not read, or on the app's life cycle; or a token
                                rule's BT005-BT008 pattern no chain covers).
          --allow GLOB          A wrapper path where raw begin calls are expected (repeatable;
                                `*`, `**`, `?`, `[abc]`); BT001 is not reported there.
          --max-file-size N     Skip files larger than N bytes (default: 8388608).
          --baseline FILE       Report, and fail on, only findings that FILE does not hold;
                                the others are counted as baselined in the summary line.
          --write-baseline FILE Write today's findings to FILE (JSON) as a baseline, exit 0.
          --explain ID          Print rule ID's explanation (what it finds, what happens on a
                                device, before and after, blind spots) and exit.
          -h, --help            Show this text.
          --version             Print the release this tool belongs to.
          Suppress a finding with `// bgtask:ignore BT00x` on its line or the line above.
          Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or I/O error.
          Skipped files (binary, not UTF-8, too large, unreadable, link loops) are noted
          on standard error.

        """

    /// Runs the audit with `arguments` (without the program name).
    ///
    /// - Parameter arguments: The command-line arguments after `bgtask-audit` (or after `bgtask audit`).
    /// - Returns: What to print and the exit status.
    public static func run(_ arguments: [String]) async -> CommandResult {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .success(usage) }
        if arguments == ["--version"] { return .success("bgtask-audit \(ToolRelease.version) (BackgroundTaskKit)\n") }
        switch AuditCommand.parse(arguments) {
        case .success(let audit): return await audit.run()
        case .failure(let error): return .usageError(error.message, tool: "bgtask-audit")
        }
    }
}
