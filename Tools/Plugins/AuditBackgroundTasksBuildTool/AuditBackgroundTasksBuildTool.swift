import Foundation
import PackagePlugin

/// A build-tool plugin: every build of the target shows `bgtask-audit`'s findings as diagnostics.
///
/// Apply it to a target, and the findings in that target's Swift and Objective-C sources appear in the
/// build output as `path:line:column: warning: [BTnnn] …` (an error-severity rule says `(error)` after its
/// id; notes stay notes), which Xcode and most editors list at the line. The audit runs with `--fail-on
/// never --as-warnings`: findings never fail the build; only an audit that cannot run (an unreadable
/// source file) does.
///
/// ```swift
/// .target(
///     name: "App",
///     plugins: [.plugin(name: "AuditBackgroundTasksBuildTool", package: "BackgroundTaskKit")]
/// )
/// ```
///
/// The audit is a build command whose inputs are the target's sources, so it runs again only when one
/// of them changes. Its declared output is an empty Swift file in the plugin's work directory: SwiftPM
/// schedules a build command only when something consumes its outputs, and an empty Swift source is
/// the one output the target compiles without side effects (any other file would become a resource).
/// A target without Swift sources gets a command without outputs instead, which SwiftPM (client
/// tools-version 6.0 or later) and Xcode run all the same.
@main
struct AuditBackgroundTasksBuildTool: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        return try Self.commands(
            auditing: module.sourceFiles.map(\.url),
            of: target.name,
            with: context.tool(named: "bgtask-audit").url,
            in: context.pluginWorkDirectoryURL
        )
    }

    /// The file extensions `bgtask-audit` reads.
    static let auditedExtensions: Set<String> = ["swift", "m", "mm", "h"]

    /// The one build command that audits `files`, shared by the package and the Xcode plugin.
    ///
    /// - Parameters:
    ///   - files: the target's files; those `bgtask-audit` does not read are left out.
    ///   - targetName: the target's name, for the command's display name.
    ///   - tool: the `bgtask-audit` executable.
    ///   - workDirectory: the plugin's work directory for this target, where the stamp file goes.
    /// - Returns: no command when the target has no Swift or Objective-C sources, else one.
    /// - Throws: when the stamp file cannot be written.
    static func commands(
        auditing files: [URL],
        of targetName: String,
        with tool: URL,
        in workDirectory: URL
    ) throws -> [Command] {
        let audited = files.filter { auditedExtensions.contains($0.pathExtension) }
        guard !audited.isEmpty else { return [] }
        var outputs: [URL] = []
        if audited.contains(where: { $0.pathExtension == "swift" }) {
            let stamp = workDirectory.appending(path: "BackgroundTaskAuditStamp.swift")
            try writeStampIfChanged(stamp)
            outputs.append(stamp)
        }
        return [
            .buildCommand(
                displayName: "Auditing background tasks in \(targetName)",
                executable: tool,
                arguments: ["--fail-on", "never", "--as-warnings", "--"] + audited.map(\.path),
                inputFiles: audited,
                outputFiles: outputs
            )
        ]
    }

    /// Writes the stamp file unless it already holds the same text, so its date (and the target's
    /// build) stays untouched from one build to the next.
    private static func writeStampIfChanged(_ stamp: URL) throws {
        let text = Data(
            """
            // Written by BackgroundTaskKit's AuditBackgroundTasksBuildTool plugin. It is empty on purpose:
            // it stands for the last `bgtask-audit` of this target, which runs again when a source changes.

            """.utf8
        )
        if (try? Data(contentsOf: stamp)) != text {
            try text.write(to: stamp, options: .atomic)
        }
    }
}
