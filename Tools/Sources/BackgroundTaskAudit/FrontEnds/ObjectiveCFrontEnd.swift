import AuditCodeModel

/// Reads an Objective-C file with the audit's own lexer into the code model the Swift front end also builds: classes
/// and categories, properties and instance variables, methods and C functions with their statements, messages, C
/// calls and blocks. A block's weak captures are the `__weak` locals of the code around it that it names.
public enum ObjectiveCFrontEnd {
    /// Reads `source`, the text of the file at `path`.
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - path: The path to record in locations.
    /// - Returns: The file's declarations. Code it cannot read is skipped; nothing traps.
    public static func read(_ source: String, path: String) -> CodeFile {
        let syntax = SourceSyntax(bytes: Array(source.utf8), language: .objectiveC)
        var reader = ObjectiveCDeclarations(syntax: syntax, path: path)
        reader.run()
        return CodeFile(
            path: path, language: .objectiveC, bodies: reader.bodies, types: reader.types,
            properties: reader.properties)
    }
}
