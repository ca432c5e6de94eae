import Foundation

/// A folder under the system's temporary directory, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("bgtask-audit-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make everything removable again (a test may have locked a folder).
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in enumerator {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o755],
                    ofItemAtPath: path + "/" + relative
                )
            }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` (UTF-8) to `relativePath`, creating folders as needed.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, Data(text.utf8))
    }

    /// Writes `data` to `relativePath`, creating folders as needed.
    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    func makeFolder(_ relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }
}
