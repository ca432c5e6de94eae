import AuditCodeModel
import Foundation
import SwiftAuditFrontEnd

/// Reads a tree into the audit's code model: every Swift file through the Swift parser, every Objective-C file
/// through the audit's own front end, in parallel, and indexes every declaration of the project.
public enum CodeModelReader {
    /// Reads the Swift and Objective-C files under `paths` (as the audit finds them) and indexes them.
    ///
    /// - Parameters:
    ///   - paths: Files and folders.
    ///   - configuration: Which files to read (size limit, skipped folders).
    /// - Returns: The index of every file read; unreadable, non-UTF-8 and oversized files are left out.
    /// - Throws: ``AuditError`` when a path does not exist.
    public static func read(paths: [String], configuration: AuditConfiguration = AuditConfiguration())
        async throws(AuditError) -> ProjectIndex
    {
        var walker = SourceFileWalker(configuration: configuration)
        let files = try walker.walk(paths).files
        let codeFiles = await Auditor.inParallel(files.count) { index -> CodeFile? in
            let file = files[index]
            guard let data = FileManager.default.contents(atPath: file.path),
                data.count <= configuration.maximumFileSize, let source = String(data: data, encoding: .utf8)
            else { return nil }
            return Self.read(source, path: file.path, language: file.language)
        }
        return ProjectIndex(files: codeFiles.compactMap { $0 })
    }

    /// Reads one file's text with the front end of its language.
    public static func read(_ source: String, path: String, language: SourceLanguage) -> CodeFile {
        switch language {
        case .swift: SwiftFrontEnd.read(source, path: path)
        case .objectiveC: ObjectiveCFrontEnd.read(source, path: path)
        }
    }
}
