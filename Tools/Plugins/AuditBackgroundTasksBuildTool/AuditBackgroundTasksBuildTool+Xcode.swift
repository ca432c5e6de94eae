#if canImport(XcodeProjectPlugin)
    import PackagePlugin
    import XcodeProjectPlugin

    /// The same audit for a target of an Xcode project (Editor › Add Build Tool Plug-in… or the target's
    /// "Run Build Tool Plug-ins" phase).
    extension AuditBackgroundTasksBuildTool: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            try Self.commands(
                auditing: target.inputFiles.map(\.url),
                of: target.displayName,
                with: context.tool(named: "bgtask-audit").url,
                in: context.pluginWorkDirectoryURL
            )
        }
    }
#endif
