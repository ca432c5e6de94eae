import CommandLineSupport
import Foundation

/// `bgtask audit …` runs the audit's own tool, `bgtask-audit`, with the same arguments: the audit is built apart
/// (it is the only part of the tools that uses a Swift parser), so `bgtask simulate` builds quickly.
enum AuditForwarding {
    /// The environment variable that names the `bgtask-audit` to run, ahead of the one beside `bgtask` and `PATH`.
    static let overrideVariable = "BGTASK_AUDIT"

    /// Runs `bgtask-audit` with `arguments`, its output going straight to this process's (or to `output` and `errors`),
    /// and returns its exit status; exit status 2 with how to build it when it cannot be found.
    static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        output: FileHandle? = nil, errors: FileHandle? = nil
    ) -> CommandResult {
        guard let tool = locate(environment: environment) else {
            return CommandResult(
                exitStatus: 2,
                standardError: """
                    error: bgtask audit runs bgtask-audit, which was not found beside bgtask or on PATH.
                    Build it: swift build -c release --package-path Tools --product bgtask-audit
                    (then put it beside bgtask or on PATH), or run it: swift run --package-path Tools bgtask-audit …

                    """)
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        if let output { process.standardOutput = output }
        if let errors { process.standardError = errors }
        do {
            try process.run()
        } catch {
            return CommandResult(exitStatus: 2, standardError: "error: cannot run \(tool.path): \(error)\n")
        }
        process.waitUntilExit()
        return CommandResult(exitStatus: process.terminationStatus)
    }

    /// `$BGTASK_AUDIT`, else `bgtask-audit` in the folder of the running executable, else the first on `PATH`.
    static func locate(environment: [String: String]) -> URL? {
        let manager = FileManager.default
        if let named = environment[overrideVariable], !named.isEmpty {
            return manager.isExecutableFile(atPath: named) ? URL(fileURLWithPath: named) : nil
        }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(executable.deletingLastPathComponent())
        }
        folders += (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        return folders.map { $0.appendingPathComponent("bgtask-audit") }.first {
            manager.isExecutableFile(atPath: $0.path)
        }
    }
}
