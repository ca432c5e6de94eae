import Foundation

/// Collects the Swift and Objective-C files under the paths given to an audit.
///
/// Folders named in ``AuditConfiguration/skippedFolderNames`` and hidden folders are not entered
/// (a path given explicitly is always read). Symbolic links are followed, but a folder is never
/// entered twice: a link back into a folder on the current path is reported as a loop, and a link
/// to a folder already scanned elsewhere is silently not scanned again. FIFOs, sockets and devices
/// are never opened, so nothing can block. Folders that cannot be listed are reported and skipped.
struct SourceFileWalker {
    /// A file to audit.
    struct SourceFile: Sendable {
        var path: String
        var language: SourceLanguage
        /// The path below the folder named on the command line (the file's name alone for a file named there):
        /// what tells test code by its folders, never the folders above what the user asked for.
        var pathBelowRoot: String
    }

    /// What the walk found.
    struct Result: Sendable {
        var files: [SourceFile] = []
        var skipped: [SkippedFile] = []
        /// Property lists found (at most 1 MiB each): where an app's `BGTaskSchedulerPermittedIdentifiers` are.
        var propertyLists: [String] = []
    }

    /// A folder's identity (device and inode), so that links cannot make the walk go round.
    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    let configuration: AuditConfiguration
    /// Lists a folder's entries; replaceable in tests.
    var listFolder: @Sendable (String) throws -> [String] = { path in
        try FileManager.default.contentsOfDirectory(atPath: path)
    }

    private var result = Result()
    private var entered: Set<FolderIdentity> = []
    /// The path named on the command line that the walk is in.
    private var root = ""

    init(configuration: AuditConfiguration) {
        self.configuration = configuration
    }

    /// Walks `paths` in order.
    ///
    /// - Throws: ``AuditError`` with ``AuditError/Code/pathNotFound`` when a path does not exist.
    mutating func walk(_ paths: [String]) throws(AuditError) -> Result {
        result = Result()
        entered = []
        for path in paths {
            root = path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw AuditError(code: .pathNotFound, path: path)
            }
            if isFolder.boolValue {
                visitFolder(path, ancestors: [])
            } else if let language = SourceLanguage(path: path) {
                addFile(path, language: language)
            } else {
                result.skipped.append(
                    SkippedFile(path: path, reason: .unsupportedLanguage, detail: "not a Swift or Objective-C file")
                )
            }
        }
        return result
    }

    private mutating func visitFolder(_ path: String, ancestors: Set<FolderIdentity>) {
        guard let identity = Self.identity(of: path) else {
            result.skipped.append(SkippedFile(path: path, reason: .unreadableFolder, detail: "cannot read folder"))
            return
        }
        if ancestors.contains(identity) {
            result.skipped.append(
                SkippedFile(path: path, reason: .symbolicLinkLoop, detail: "symbolic-link loop (not followed)")
            )
            return
        }
        guard entered.insert(identity).inserted else { return }  // reached again through a link
        let names: [String]
        do {
            names = try listFolder(path)
        } catch {
            result.skipped.append(
                SkippedFile(path: path, reason: .unreadableFolder, detail: "cannot read folder (\(Self.reason(error)))")
            )
            return
        }
        let inside = ancestors.union([identity])
        for name in names.sorted() {
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            visitEntry(child, name: name, ancestors: inside)
        }
    }

    private mutating func visitEntry(_ path: String, name: String, ancestors: Set<FolderIdentity>) {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path) else {
            result.skipped.append(SkippedFile(path: path, reason: .unreadable, detail: "cannot read"))
            return
        }
        var type = attributes[.type] as? FileAttributeType
        var size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if type == .typeSymbolicLink {
            guard let target = try? manager.attributesOfItem(atPath: Self.resolved(path)),
                manager.fileExists(atPath: path)
            else {
                if SourceLanguage(path: name) != nil {
                    result.skipped.append(
                        SkippedFile(
                            path: path,
                            reason: .brokenSymbolicLink,
                            detail: "symbolic link to a missing target (or a link loop)"
                        )
                    )
                }
                return
            }
            type = target[.type] as? FileAttributeType
            size = (target[.size] as? NSNumber)?.intValue ?? 0
        }
        switch type {
        case .typeDirectory?:
            guard !name.hasPrefix("."), !configuration.skippedFolderNames.contains(name) else { return }
            visitFolder(path, ancestors: ancestors)
        case .typeRegular?:
            if name.hasSuffix(".plist"), size <= 1 << 20 { result.propertyLists.append(path) }
            guard let language = SourceLanguage(path: name) else { return }
            if size > configuration.maximumFileSize {
                result.skipped.append(
                    SkippedFile(
                        path: path,
                        reason: .tooLarge,
                        detail: "larger than \(configuration.maximumFileSize) bytes (\(size) bytes)"
                    )
                )
                return
            }
            addFile(path, language: language)
        default:
            if SourceLanguage(path: name) != nil {
                result.skipped.append(
                    SkippedFile(path: path, reason: .notRegularFile, detail: "not a regular file (not opened)")
                )
            }
        }
    }

    private mutating func addFile(_ path: String, language: SourceLanguage) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let below = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
        result.files.append(SourceFile(path: path, language: language, pathBelowRoot: below))
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    private static func identity(of path: String) -> FolderIdentity? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved(path)),
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        else { return nil }
        return FolderIdentity(device: device, inode: inode)
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return nsError.localizedDescription
    }
}
