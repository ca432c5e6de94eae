import Foundation

/// How many Swift and Objective-C files and lines a tree holds (`.swift`, `.m`, `.mm`, `.h`; hidden folders and
/// `.build` skipped, as the audit skips them).
enum SourceLineCount {
    /// The files and lines under `path`.
    static func count(in path: String) throws -> (files: Int, lines: Int) {
        let root = URL(fileURLWithPath: path)
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return (0, 0) }
        var files = 0
        var lines = 0
        for case let url as URL in walker {
            if url.lastPathComponent == ".build" {
                walker.skipDescendants()
                continue
            }
            guard ["swift", "m", "mm", "h"].contains(url.pathExtension),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            files += 1
            lines += data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        return (files, lines)
    }
}
