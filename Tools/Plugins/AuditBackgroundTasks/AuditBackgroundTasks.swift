import Foundation
import PackagePlugin

/// `swift package audit-background-tasks`: runs `bgtask-audit` over the package's source targets.
///
/// By default it audits every Swift and Objective-C source target except test targets (tests are
/// where deliberately wrong samples live). Options:
///
/// - `--target NAME` (repeatable): audit only these targets, test targets included.
/// - Anything else is passed to `bgtask-audit` unchanged: `--format json`, `--fail-on error`,
///   `--allow GLOB`.
///
/// The command fails (non-zero exit) when `bgtask-audit` does, so it can gate CI.
@main
struct AuditBackgroundTasks: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let requested = extractor.extractOption(named: "target")
        let modules = context.package.targets.compactMap { $0 as? SourceModuleTarget }
        let unknown = requested.filter { name in !modules.contains { $0.name == name } }
        guard unknown.isEmpty else {
            throw AuditPluginError("no source target named \(unknown.joined(separator: ", ")) in this package")
        }
        let selected = modules.filter { module in
            requested.isEmpty ? module.kind != .test : requested.contains(module.name)
        }
        guard !selected.isEmpty else {
            print("No source targets to audit.")
            return
        }

        let tool = try context.tool(named: "bgtask-audit")
        let process = Process()
        process.executableURL = tool.url
        // The targets' own source files, so that only what SwiftPM builds is audited.
        let files = selected.flatMap { $0.sourceFiles.map(\.url.path) }.filter { path in
            [".swift", ".m", ".mm", ".h"].contains { path.hasSuffix($0) }
        }
        guard !files.isEmpty else {
            print("No Swift or Objective-C sources to audit.")
            return
        }
        process.arguments = extractor.remainingArguments + ["--"] + files
        try process.run()
        process.waitUntilExit()

        switch process.terminationStatus {
        case 0:
            return
        case 1:
            throw AuditPluginError("bgtask-audit found risky background-task call sites (see above)")
        default:
            throw AuditPluginError("bgtask-audit failed with exit status \(process.terminationStatus)")
        }
    }
}

/// Why the audit command failed.
struct AuditPluginError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
