import AuditCodeModel
import SwiftParser
import SwiftSyntax

/// Reads a Swift file with the Swift parser (`swift-syntax`) into the audit's code model: its types, properties,
/// and every function, method, initializer, deinitializer and accessor with its statements, closures and capture
/// lists. Scopes, shadowing, `guard let self`, `defer`, `await` and isolation annotations come from the syntax tree.
public enum SwiftFrontEnd {
    /// Reads `source`, the text of the file at `path`.
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - path: The path to record in locations.
    /// - Returns: The file's declarations. Code the parser cannot read is skipped; nothing traps.
    public static func read(_ source: String, path: String) -> CodeFile {
        let bytes = Array(source.utf8)
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let collector = DeclarationCollector(reader: BodyReader(lines: LineTable(bytes), bytes: bytes, path: path))
        collector.walk(tree)
        return CodeFile(
            path: path, language: .swift, bodies: collector.bodies, types: collector.types,
            properties: collector.properties)
    }
}
